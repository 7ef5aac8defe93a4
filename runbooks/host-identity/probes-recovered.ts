import { setTimeout as sleep } from 'node:timers/promises';
import { isPodReady, RESOURCES, type StepContext } from '../../sdk/index.ts';

const POLL_INTERVAL_MS = 2_000;

/** A pod whose probes were dropped as world from its own node. */
export interface DroppedProbes {
  namespace: string;
  name: string;
  node: string;
}

/**
 * Polls `pods` until each is Ready again (once its node marks host traffic, the kubelet's next
 * probe passes) or `timeoutMs` passes, or the run's deadline. Returns the ones seen Ready; a pod
 * that is gone or still not Ready is left out, so its problem stays open.
 */
export async function awaitProbesPassing(
  ctx: Pick<StepContext<unknown>, 'kube' | 'signal'>,
  pods: readonly DroppedProbes[],
  timeoutMs: number,
): Promise<DroppedProbes[]> {
  const signal = AbortSignal.any([ctx.signal, AbortSignal.timeout(Math.max(0, timeoutMs))]);
  const ready: DroppedProbes[] = [];
  let pending = [...pods];
  while (pending.length > 0) {
    const looks = await Promise.all(
      pending.map(async (pod) => {
        try {
          return isPodReady(await ctx.kube.get(RESOURCES.pods, pod.namespace, pod.name))
            ? 'ready'
            : 'waiting';
        } catch {
          // Gone or unreadable: nothing to show it passes.
          return 'gone';
        }
      }),
    );
    ready.push(...pending.filter((_, i) => looks[i] === 'ready'));
    pending = pending.filter((_, i) => looks[i] === 'waiting');
    if (pending.length === 0) break;
    try {
      await sleep(POLL_INTERVAL_MS, undefined, { signal });
    } catch {
      break;
    }
  }
  return ready;
}
