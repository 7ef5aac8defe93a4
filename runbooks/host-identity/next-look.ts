import { setTimeout as sleep } from 'node:timers/promises';

/** How often a restarted node's agent, or a pod waiting on its probes, is looked at again. */
const POLL_INTERVAL_MS = 2_000;

/**
 * Waits for the next look: the poll interval, or until `endsAt` (epoch ms) if that comes first.
 * False once `endsAt` has passed or the run stopped: look no more. The time limit is a clock
 * reading, not an `AbortSignal.timeout` joined to the run's signal: Node's `AbortSignal.any` holds
 * its sources weakly, so such a timeout can be garbage-collected and never fire (nodejs/node#57736).
 */
export async function nextLook(signal: AbortSignal, endsAt: number): Promise<boolean> {
  const left = endsAt - Date.now();
  if (left <= 0 || signal.aborted) return false;
  try {
    await sleep(Math.min(POLL_INTERVAL_MS, left), undefined, { signal });
    return true;
  } catch {
    return false;
  }
}
