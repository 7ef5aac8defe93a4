/** Go's time.Duration.String() for a non-negative number of nanoseconds, e.g. `318.3µs`, `1m15s`. */
export function goDuration(nanoseconds: number): string {
  const ns = Math.round(nanoseconds);
  if (ns === 0) return '0s';
  if (ns < 1_000) return `${ns}ns`;
  if (ns < 1_000_000) return `${fraction(ns, 3)}µs`;
  if (ns < 1_000_000_000) return `${fraction(ns, 6)}ms`;
  const hours = Math.floor(ns / 3_600_000_000_000);
  const minutes = Math.floor((ns % 3_600_000_000_000) / 60_000_000_000);
  const seconds = fraction(ns % 60_000_000_000, 9);
  if (hours > 0) return `${hours}h${minutes}m${seconds}s`;
  if (minutes > 0) return `${minutes}m${seconds}s`;
  return `${seconds}s`;
}

/** `value / 10^digits` with the fraction's trailing zeros dropped, as Go prints it. */
function fraction(value: number, digits: number): string {
  const unit = 10 ** digits;
  const whole = Math.floor(value / unit);
  const frac = String(value % unit)
    .padStart(digits, '0')
    .replace(/0+$/, '');
  return frac ? `${whole}.${frac}` : String(whole);
}
