/**
 * Time as DynamoDB TTL counts it: whole epoch seconds. Both adapters use these, so an entry lives
 * exactly as long in memory as in the table.
 */

export function epochSeconds(now: Date): number {
  return Math.floor(now.getTime() / 1000);
}

/** The epoch second an entry taken at `now` for `ttlSeconds` stops living (TTL wants an integer). */
export function expiryAt(now: Date, ttlSeconds: number): number {
  return epochSeconds(now) + Math.ceil(ttlSeconds);
}

/** An epoch second as an ISO time, for messages ("held until ..."). */
export function isoAt(epochSecond: number): string {
  return new Date(epochSecond * 1000).toISOString();
}

export function hasExpired(expiresAt: number, now: Date): boolean {
  return expiresAt <= epochSeconds(now);
}
