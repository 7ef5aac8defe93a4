import { setTimeout as sleep } from 'node:timers/promises';
import { isKubeError, type PodFacts, podFacts, RESOURCES, type StepContext } from '../../sdk/index.ts';
import type { KeyLookup } from './key-set.ts';
import type { UnmanagedPodsParams } from './params.ts';
import type { UnmanagedPodsState } from './state.ts';

type Ctx = StepContext<UnmanagedPodsParams, UnmanagedPodsState>;

/** How long to wait for replacements and their endpoints: an agent writes one within seconds. */
export const REPLACEMENT_WAIT = { pollMs: 250, timeoutMs: 20_000 } as const;

export interface ReplacementCheck {
  evicted: PodFacts;
  replacement?: PodFacts;
  hasEndpoint: boolean;
}

/**
 * Pairs each evicted pod with the pod its controller made to replace it: same controller, not
 * seen before the evictions, and for a DaemonSet on the same node. Each new pod replaces one.
 */
export function matchReplacements(
  evicted: readonly PodFacts[],
  pods: readonly PodFacts[],
  seenUids: KeyLookup,
): Map<string, PodFacts> {
  const matched = new Map<string, PodFacts>();
  const claimed = new Set<string>();
  for (const gone of evicted) {
    const owner = gone.owner;
    if (!owner) continue;
    const replacement = pods.find(
      (pod) =>
        !seenUids.has(pod.uid) &&
        !claimed.has(pod.uid) &&
        !pod.terminating &&
        pod.owner?.uid === owner.uid &&
        (owner.kind !== 'DaemonSet' || pod.node === gone.node),
    );
    if (!replacement) continue;
    claimed.add(replacement.uid);
    matched.set(gone.uid, replacement);
  }
  return matched;
}

/** Whether the pod has its own CiliumEndpoint (not one left over from an earlier pod of that name). */
async function hasEndpoint(ctx: Ctx, pod: PodFacts): Promise<boolean> {
  try {
    const endpoint = await ctx.kube.get(RESOURCES.ciliumendpoints, pod.namespace, pod.name);
    const podOwner = endpoint.metadata.ownerReferences?.find((ref) => ref.kind === 'Pod');
    return !podOwner || podOwner.uid === pod.uid;
  } catch (error) {
    if (isKubeError(error, 'not-found')) return false;
    throw error;
  }
}

async function checkOnce(
  ctx: Ctx,
  evicted: readonly PodFacts[],
  seenUids: KeyLookup,
  confirmed: Set<string>,
): Promise<ReplacementCheck[]> {
  const namespaces = [...new Set(evicted.map((pod) => pod.namespace))];
  // All phases: a replacement is Pending before it runs.
  const lists = await Promise.all(
    namespaces.map((namespace) => ctx.kube.list(RESOURCES.pods, { namespace, project: podFacts })),
  );
  const replacements = matchReplacements(evicted, lists.flat(), seenUids);
  return Promise.all(
    evicted.map(async (pod): Promise<ReplacementCheck> => {
      const replacement = replacements.get(pod.uid);
      if (!replacement) return { evicted: pod, hasEndpoint: false };
      if (!confirmed.has(replacement.uid) && (await hasEndpoint(ctx, replacement)))
        confirmed.add(replacement.uid);
      return { evicted: pod, replacement, hasEndpoint: confirmed.has(replacement.uid) };
    }),
  );
}

/**
 * Polls until every evicted pod has a replacement with a CiliumEndpoint, or the wait runs out
 * (then the last look is the answer). The run's deadline aborts the wait.
 */
export async function awaitReplacements(
  ctx: Ctx,
  evicted: readonly PodFacts[],
  seenUids: KeyLookup,
): Promise<ReplacementCheck[]> {
  const giveUpAt = performance.now() + REPLACEMENT_WAIT.timeoutMs;
  const endsAt = Date.now() + REPLACEMENT_WAIT.timeoutMs;
  const confirmed = new Set<string>();
  for (;;) {
    const checks = await checkOnce(ctx, evicted, seenUids, confirmed);
    const settled = checks.filter((check) => check.hasEndpoint).length;
    ctx.progress(settled, checks.length, 'replacements with a CiliumEndpoint', endsAt);
    if (settled === checks.length || performance.now() >= giveUpAt) return checks;
    await sleep(REPLACEMENT_WAIT.pollMs, undefined, { signal: ctx.signal });
  }
}
