import { epochSeconds } from './expiry.ts';
import type { BrakeState } from './types.ts';

/** A fixed brake window in epoch seconds, `[start, end)`. */
export interface BrakeWindow {
  start: number;
  end: number;
}

/** Windows are aligned to the epoch, so every caller (any Lambda, any source) agrees on the current one. */
export function brakeWindow(now: Date, windowSeconds: number): BrakeWindow {
  const start = Math.floor(epochSeconds(now) / windowSeconds) * windowSeconds;
  return { start, end: start + windowSeconds };
}

export function brakeState(cluster: string, used: number, limit: number, window: BrakeWindow): BrakeState {
  return {
    cluster,
    used,
    limit,
    windowEndsAt: new Date(window.end * 1000).toISOString(),
    engaged: used >= limit,
  };
}
