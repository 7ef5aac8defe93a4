import { expiryAt, hasExpired } from '../expiry.ts';
import type { PairState, PairStore } from '../types.ts';

/** A pair's state and the epoch second its window ends. */
export interface PairEntry {
  state: PairState;
  expiresAt: number;
}

export function memoryPairs(pairs = new Map<string, PairEntry>()): PairStore {
  const live = (key: string, now: Date) => {
    const entry = pairs.get(key);
    return entry && !hasExpired(entry.expiresAt, now) ? entry.state : undefined;
  };
  // Copies in and out; check and write in one synchronous turn, as DynamoDB checks its condition.
  return {
    async get(key, now) {
      const state = live(key, now);
      return state && structuredClone(state);
    },
    async put(key, state, ttlSeconds, now) {
      if ((live(key, now)?.version ?? 0) !== state.version - 1) return false;
      pairs.set(key, { state: structuredClone(state), expiresAt: expiryAt(now, ttlSeconds) });
      return true;
    },
  };
}
