/**
 * EventBridge Scheduler expressions, checked before deploy rather than by a failed
 * CreateSchedule: `rate(<n> minute|minutes|hour|hours|day|days)`, or `cron(<minutes> <hours>
 * <day-of-month> <month> <day-of-week> <year>)` where exactly one of the two day fields is `?`.
 * Returns why the expression is wrong, or undefined.
 */
export function scheduleExpressionProblem(expression: string): string | undefined {
  const rate = /^rate\((.*)\)$/.exec(expression);
  if (rate) {
    const match = /^(\d+) (minutes?|hours?|days?)$/.exec(rate[1]?.trim() ?? '');
    if (!match || Number(match[1]) < 1)
      return 'rate(...) takes a positive number and a unit, e.g. rate(1 day)';
    const singular = Number(match[1]) === 1;
    if (singular !== !match[2]?.endsWith('s'))
      return `rate(${rate[1]}): use the ${singular ? 'singular' : 'plural'} unit`;
    return undefined;
  }
  const cron = /^cron\((.*)\)$/.exec(expression);
  if (!cron) return 'an EventBridge schedule expression: cron(...) or rate(...)';
  const fields = (cron[1] ?? '').trim().split(/\s+/);
  if (fields.length !== 6)
    return `cron(...) takes 6 fields (minutes hours day-of-month month day-of-week year), not ${fields.length}, e.g. cron(0 3 * * ? *)`;
  const [minutes, hours, dayOfMonth, month, dayOfWeek] = fields as [string, string, string, string, string];
  if ((dayOfMonth === '?') === (dayOfWeek === '?'))
    return 'cron(...): exactly one of day-of-month and day-of-week must be ?';
  const numeric = [
    ['minutes', minutes, 59],
    ['hours', hours, 23],
    ['day-of-month', dayOfMonth, 31],
    ['month', month, 12],
  ] as const;
  for (const [name, field, max] of numeric) {
    for (const value of field.split(/[,\-/]/)) {
      if (value === '*' || value === '?' || value === 'L' || value === 'W' || /^[A-Z]{3}$/.test(value))
        continue;
      if (!/^\d+$/.test(value) || Number(value) > max)
        return `cron(...): ${name} "${field}" is not a value from 0 to ${max}`;
    }
  }
  return undefined;
}
