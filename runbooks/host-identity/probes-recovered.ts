import { isPodReady, RESOURCES, type StepContext } from '../../sdk/index.ts';
import { nextLook } from './next-look.ts';

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
  const endsAt = Date.now() + timeoutMs;
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
    if (pending.length === 0 || !(await nextLook(ctx.signal, endsAt))) break;
  }
  return ready;
}
