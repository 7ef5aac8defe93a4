import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../../src/config/load.ts';
import { scheduleExpressionProblem } from '../../../src/config/schedule-expression.ts';

describe('scheduleExpressionProblem', () => {
  it.each([
    'cron(0 3 * * ? *)',
    'cron(15 10 ? * MON-FRI *)',
    'cron(0/15 * * * ? *)',
    'cron(0 8 1 JAN,JUL ? 2027)',
    'rate(1 day)',
    'rate(5 minutes)',
  ])('accepts %s', (expression) => {
    expect(scheduleExpressionProblem(expression)).toBeUndefined();
  });

  it.each([
    ['0 3 * * *', 'an EventBridge schedule expression: cron(...) or rate(...)'],
    [
      'cron(0 3 * * *)',
      'cron(...) takes 6 fields (minutes hours day-of-month month day-of-week year), not 5',
    ],
    ['cron(0 3 * * * *)', 'exactly one of day-of-month and day-of-week must be ?'],
    ['cron(0 25 * * ? *)', 'hours "25" is not a value from 0 to 23'],
    ['rate(1 days)', 'use the singular unit'],
    ['rate(0 hours)', 'rate(...) takes a positive number and a unit'],
    ['rate(weekly)', 'rate(...) takes a positive number and a unit'],
  ])('refuses %s, saying why', (expression, why) => {
    expect(scheduleExpressionProblem(expression)).toContain(why);
  });

  it('is reported by the config loader with the file, line and field', () => {
    const text =
      'clusters:\n  - name: a\n    sim: { scenarios: [healthy] }\nschedules:\n  - name: nightly\n    expression: cron(0 3 * * *)\n';
    expect(() => parseConfig(text, 'responder.config.yaml')).toThrow(
      /responder\.config\.yaml:6: schedules\.0\.expression: cron\(\.\.\.\) takes 6 fields/,
    );
  });
});
