import {
  type ActionOutcome,
  defineStep,
  type Finding,
  type Mode,
  outcome,
  type PlannedAction,
  podKey,
  RESOURCES,
  type StepContext,
} from '../../../sdk/index.ts';
import { evictedExplanation, resultExplanation, unmanagedPodFinding } from '../findings.ts';
import type { UnmanagedPodsParams } from '../params.ts';
import type { UnmanagedPod } from '../scan.ts';
import { firstScan, type Restart, saveRestarts, type UnmanagedPodsState } from '../state.ts';
import { formatAge } from '../wording.ts';

const EVICT = 'evict-pod';

function evictionReason(pod: UnmanagedPod): string {
  return `no CiliumEndpoint after ${formatAge(pod.ageSeconds)}; its replacement gets one`;
}

function tally(restarts: readonly Restart[], mode: Mode): string {
  const words: Record<ActionOutcome, string> = {
    done: 'evicted',
    planned: mode === 'dry-run' ? 'would evict' : 'awaiting approval',
    blocked: 'blocked',
    skipped: 'skipped',
    failed: 'failed',
    unconfirmed: 'unconfirmed (may have happened)',
  };
  const counts = new Map<ActionOutcome, number>();
  for (const { result } of restarts) counts.set(result.outcome, (counts.get(result.outcome) ?? 0) + 1);
  return [...counts].map(([state, n]) => `${words[state]} ${n}`).join(', ');
}

/**
 * The uids of the pods the candidates' controllers have now, just before the evictions: whatever
 * of theirs appears after is a replacement. Read here, not kept from the scan, so a scan read
 * over several invocations keeps nothing per pod.
 */
async function podsOfTheirControllers(
  ctx: StepContext<UnmanagedPodsParams, UnmanagedPodsState>,
  candidates: readonly UnmanagedPod[],
): Promise<string[]> {
  const owners = new Set(candidates.flatMap((pod) => (pod.owner ? [pod.owner.uid] : [])));
  const namespaces = [...new Set(candidates.map((pod) => pod.namespace))];
  const lists = await Promise.all(
    namespaces.map((namespace) =>
      ctx.kube.list(RESOURCES.pods, {
        namespace,
        project: ({ metadata }) =>
          metadata.ownerReferences?.some((ref) => owners.has(ref.uid)) ? metadata.uid : undefined,
      }),
    ),
  );
  return lists.flat();
}

/**
 * Step 3: evicts each unmanaged pod the responder may touch, one at a time, through the actuator
 * (mode, exclusions, cap, brake, PodDisruptionBudgets, uid precondition). Its replacement comes
 * up with a CiliumEndpoint, because the node's agent is ready.
 */
export const restartUnmanaged = defineStep<UnmanagedPodsParams, UnmanagedPodsState>({
  id: 'restart-unmanaged',
  title: 'Restart unmanaged pods (eviction)',
  writes: true,
  async run(ctx) {
    const scan = await firstScan(ctx);
    const candidates = scan.unmanaged.filter((pod) => !pod.hold);
    if (candidates.length === 0) {
      const why =
        scan.unmanaged.length > 0
          ? 'every unmanaged pod is left alone (see find-unmanaged)'
          : 'no unmanaged pods';
      return outcome('skip', `nothing to restart: ${why}`);
    }
    const plan: PlannedAction[] = candidates.map((pod) => ({
      action: EVICT,
      target: podKey(pod),
      reason: evictionReason(pod),
      uid: pod.uid,
    }));
    const before = ctx.mode === 'dry-run' ? [] : await podsOfTheirControllers(ctx, candidates);
    const restarts: Restart[] = [];
    // One at a time: the cap and the brake count writes in order, and a deadline stops further ones.
    for (const pod of candidates) {
      ctx.signal.throwIfAborted();
      const target = { namespace: pod.namespace, name: pod.name, uid: pod.uid, node: pod.node };
      restarts.push({ pod, result: await ctx.actuator.evictPod(target, evictionReason(pod)) });
    }
    saveRestarts(ctx, restarts, before);
    const done = restarts.map((restart) => restart.result);
    // What the plan decided for each pod, in the finding's own words: a restarted pod says so.
    const findings: Finding[] = restarts.map(({ pod, result }) =>
      unmanagedPodFinding(
        pod,
        result.outcome === 'done' ? evictedExplanation(pod) : resultExplanation(result, pod, ctx.mode),
      ),
    );
    const failed = done.filter((action) => action.outcome === 'failed');
    if (failed.length > 0) {
      // A refused write (e.g. forbidden: create pods/eviction) fails the run, plainly.
      return outcome('error', `${tally(restarts, ctx.mode)}: ${failed[0]?.detail ?? 'eviction failed'}`, {
        plan,
        done,
        findings,
      });
    }
    const settled = done.every((action) => action.outcome === 'done' || action.outcome === 'planned');
    return outcome(settled ? 'pass' : 'warn', tally(restarts, ctx.mode), { plan, done, findings });
  },
});
