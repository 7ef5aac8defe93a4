import { randomUUID } from 'node:crypto';
import { type BrakeEntry, brakeState, inWindow } from '../brake-window.ts';
import type { BrakeStore } from '../types.ts';

export function memoryBrake(logs = new Map<string, BrakeEntry[]>()): BrakeStore {
  return {
    async take(cluster, limit, windowSeconds, now) {
      // Stryker disable next-line ArrayDeclaration: an entry without a time is outside every window
      const counted = inWindow(logs.get(cluster) ?? [], now, windowSeconds);
      if (counted.length >= limit) return undefined;
      const entry = { at: now.getTime(), id: randomUUID() };
      logs.set(cluster, [...counted, entry]);
      return entry.id;
    },
    async refund(cluster, ticket) {
      logs.set(
        cluster,
        // Stryker disable next-line ArrayDeclaration: an entry without a time is outside every window
        (logs.get(cluster) ?? []).filter((entry) => entry.id !== ticket),
      );
    },
    async state(cluster, limit, windowSeconds, now) {
      return brakeState(
        cluster,
        // Stryker disable next-line ArrayDeclaration: an entry without a time is outside every window
        inWindow(logs.get(cluster) ?? [], now, windowSeconds),
        limit,
        windowSeconds,
        now,
      );
    },
    async reset(cluster) {
      logs.delete(cluster);
    },
  };
}
