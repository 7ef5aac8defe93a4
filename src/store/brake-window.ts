import type { BrakeState } from './types.ts';

/** One counted cluster write: when (epoch ms) and its ticket, so a write that did not happen can be given back. */
export interface BrakeEntry {
  at: number;
  id: string;
}

/**
 * The brake is a sliding window: a write counts for exactly `windowSeconds` after it happened, so
 * no span of that length ever holds more than the limit (fixed windows let twice the limit through
 * across a boundary). These are the writes that still count at `now`.
 */
export function inWindow(entries: readonly BrakeEntry[], now: Date, windowSeconds: number): BrakeEntry[] {
  const since = now.getTime() - windowSeconds * 1000;
  return entries.filter((entry) => entry.at > since);
}

/** The brake as a person reads it; `windowEndsAt` is when the oldest counted write stops counting. */
export function brakeState(
  cluster: string,
  counted: readonly BrakeEntry[],
  limit: number,
  windowSeconds: number,
  now: Date,
): BrakeState {
  const oldest = Math.min(...counted.map((entry) => entry.at));
  return {
    cluster,
    used: counted.length,
    limit,
    windowEndsAt: new Date(counted.length > 0 ? oldest + windowSeconds * 1000 : now.getTime()).toISOString(),
    engaged: counted.length >= limit,
  };
}
