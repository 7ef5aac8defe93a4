import { brakeState, brakeWindow } from '../brake-window.ts';
import type { BrakeStore } from '../types.ts';

interface WindowCount {
  start: number;
  used: number;
}

export function memoryBrake(): BrakeStore {
  const counts = new Map<string, WindowCount>();
  const usedIn = (cluster: string, start: number) => {
    const count = counts.get(cluster);
    return count?.start === start ? count.used : 0;
  };
  return {
    async take(cluster, limit, windowSeconds, now) {
      const { start } = brakeWindow(now, windowSeconds);
      const used = usedIn(cluster, start);
      if (used >= limit) return false;
      counts.set(cluster, { start, used: used + 1 });
      return true;
    },
    async state(cluster, limit, windowSeconds, now) {
      const window = brakeWindow(now, windowSeconds);
      return brakeState(cluster, usedIn(cluster, window.start), limit, window);
    },
    async reset(cluster) {
      counts.delete(cluster);
    },
  };
}
