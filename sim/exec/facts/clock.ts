import type { SimCluster } from '../../cluster.ts';

/** The simulator's clock (the store's, which tests may fix), at second precision. */
export function simNow(cluster: SimCluster): Date {
  return new Date(cluster.store.timestamp());
}

/** RFC 3339 in UTC without fractional seconds, as Go's time.RFC3339 prints a UTC time. */
export function rfc3339(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}
