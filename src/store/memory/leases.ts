import { expiryAt, hasExpired, isoAt } from '../expiry.ts';
import type { LeaseStore } from '../types.ts';

export interface Lease {
  owner: string;
  expiresAt: number;
}

export function memoryLeases(leases = new Map<string, Lease>()): LeaseStore {
  return {
    // Check and write in one synchronous turn, as in the dedupe store.
    async acquire(key, owner, ttlSeconds, now) {
      const held = leases.get(key);
      if (held && held.owner !== owner && !hasExpired(held.expiresAt, now)) return false;
      leases.set(key, { owner, expiresAt: expiryAt(now, ttlSeconds) });
      return true;
    },
    async release(key, owner) {
      if (leases.get(key)?.owner === owner) leases.delete(key);
    },
    async handOver(key, from, to, ttlSeconds, now) {
      const held = leases.get(key);
      if (held?.owner !== from || hasExpired(held.expiresAt, now)) return false;
      leases.set(key, { owner: to, expiresAt: expiryAt(now, ttlSeconds) });
      return true;
    },
    async holder(key, now) {
      const held = leases.get(key);
      if (!held || hasExpired(held.expiresAt, now)) return undefined;
      return { owner: held.owner, expiresAt: isoAt(held.expiresAt) };
    },
  };
}
