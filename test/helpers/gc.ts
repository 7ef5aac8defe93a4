import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** V8's `gc()`, exposed at run time: vitest's workers start without --expose-gc. */
export function exposeGc(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

/**
 * Collects garbage every `everyMs` until the returned function is called: what a busy process
 * does now and then to anything held only weakly, done for certain.
 */
export function collectingGarbage(everyMs = 10): () => void {
  const gc = exposeGc();
  const timer = setInterval(gc, everyMs);
  return () => clearInterval(timer);
}
