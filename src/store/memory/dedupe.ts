import { expiryAt, hasExpired } from '../expiry.ts';
import type { DedupeStore } from '../types.ts';

export function memoryDedupe(expiries = new Map<string, number>()): DedupeStore {
  return {
    // No await between the check and the write: concurrent callers in this process are served one
    // at a time, so exactly one of them sees the key free.
    async claim(key, ttlSeconds, now) {
      const expiresAt = expiries.get(key);
      if (expiresAt !== undefined && !hasExpired(expiresAt, now)) return false;
      expiries.set(key, expiryAt(now, ttlSeconds));
      return true;
    },
    async release(key) {
      expiries.delete(key);
    },
  };
}
