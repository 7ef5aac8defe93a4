import {
  checkDeletion,
  checksSummary,
  type DeletionCheck,
  defineStep,
  type Evidence,
  type Finding,
  type Mode,
  outcome,
  podKey,
  type StepContext,
  statusFor,
} from '../../../sdk/index.ts';
import {
  type Explanation,
  evictionUncheckedFinding,
  holdExplanation,
  notEvictedExplanation,
  replacementMissingFinding,
  replacementUnmanagedFinding,
  resultExplanation,
  unmanagedPodFinding,
} from '../findings.ts';
import type { UnmanagedPodsParams } from '../params.ts';
import { awaitReplacements, REPLACEMENT_WAIT, type ReplacementCheck } from '../replacements.ts';
import { scanCluster, type UnmanagedPod } from '../scan.ts';
import { firstScan, type Restart, savedRestarts, type UnmanagedPodsState } from '../state.ts';
import { count, deletePodCommand } from '../wording.ts';

const WAITED = `${REPLACEMENT_WAIT.timeoutMs / 1000}s`;

function replacementFindings(checks: readonly ReplacementCheck[]): Finding[] {
  return checks.flatMap(({ evicted, replacement, hasEndpoint }) => {
    if (!replacement) return [replacementMissingFinding(evicted, WAITED)];
    return hasEndpoint ? [] : [replacementUnmanagedFinding(evicted, replacement, WAITED)];
  });
}

/** An eviction whose answer was lost, and what the cluster says of it now. */
interface Unconfirmed extends DeletionCheck {
  restart: Restart;
}

/** Why a pod is still unmanaged after the restart step: left alone, not evicted, or new since. */
function remainingExplanation(
  pod: UnmanagedPod,
  restarts: ReadonlyMap<string, Restart>,
  unconfirmed: ReadonlyMap<string, Unconfirmed>,
  ctx: { mode: Mode; cilium: { namespace: string } },
): Explanation {
  const restart = restarts.get(pod.uid);
  const lost = unconfirmed.get(pod.uid);
  return (
    holdExplanation(pod, ctx.cilium.namespace) ??
    // Listed again, unmanaged and not terminating: whatever the first look said, it is still here.
    (lost
      ? notEvictedExplanation(
          pod,
          lost.happened === false ? lost.seen : 'it is still running: it did not happen',
        )
      : undefined) ??
    (restart
      ? resultExplanation(restart.result, pod, ctx.mode)
      : {
          reason: 'it became unmanaged after the restart step; the next run restarts it',
          fix: deletePodCommand(pod),
        })
  );
}

/** What the cluster says of each eviction whose answer was lost, and the report's words for it. */
async function checkUnconfirmed(
  ctx: StepContext<UnmanagedPodsParams, UnmanagedPodsState>,
  restarts: readonly Restart[],
): Promise<{ checks: Unconfirmed[]; evidence: Evidence[]; summary: string }> {
  const lost = restarts.filter(({ result }) => result.outcome === 'unconfirmed');
  const checks = await Promise.all(
    lost.map(async (restart) => ({ restart, ...(await checkDeletion(ctx.kube, restart.pod)) })),
  );
  const evidence = checks.map(({ restart, seen }) => ({
    source: `unconfirmed evict-pod ${podKey(restart.pod)} (uid ${restart.pod.uid})`,
    text: seen,
  }));
  return { checks, evidence, summary: checksSummary(checks, 'eviction') };
}

/**
 * Step 4: after evictions, first asks the cluster whether each eviction whose answer was lost
 * happened (the pod with that uid gone or terminating), then waits for each replacement to get a
 * CiliumEndpoint, then looks again and reports every pod still unmanaged with the reason it is.
 * In dry-run nothing changed, so `find-unmanaged` already says what remains.
 */
export const verifyReplacements = defineStep<UnmanagedPodsParams, UnmanagedPodsState>({
  id: 'verify-replacements',
  title: 'Replacements are managed; what remains',
  writes: false,
  async when(ctx) {
    if (ctx.mode === 'dry-run') return 'dry-run: nothing was evicted, so nothing to verify';
    return (await firstScan(ctx)).unmanaged.length === 0 ? 'nothing to verify: no unmanaged pods' : undefined;
  },
  async run(ctx) {
    const { restarts, before: seenBefore } = savedRestarts(ctx);
    const unconfirmed = await checkUnconfirmed(ctx, restarts);
    const evicted = [
      ...restarts.filter(({ result }) => result.outcome === 'done').map(({ pod }) => pod),
      ...unconfirmed.checks.filter((check) => check.happened === true).map(({ restart }) => restart.pod),
    ];
    const checks = evicted.length > 0 ? await awaitReplacements(ctx, evicted, seenBefore) : [];
    const now = await scanCluster(ctx);
    const byUid = new Map(restarts.map((restart) => [restart.pod.uid, restart]));
    const lostByUid = new Map(unconfirmed.checks.map((check) => [check.restart.pod.uid, check]));
    const stillUnmanaged = new Set(now.unmanaged.map((pod) => pod.uid));
    const findings = [
      ...replacementFindings(checks),
      ...now.unmanaged.map((pod) =>
        unmanagedPodFinding(pod, remainingExplanation(pod, byUid, lostByUid, ctx)),
      ),
      // Unknown, and not seen unmanaged again either: a person has to look.
      ...unconfirmed.checks
        .filter((check) => check.happened === undefined && !stillUnmanaged.has(check.restart.pod.uid))
        .map((check) => evictionUncheckedFinding(check.restart.pod, check.seen)),
    ];

    const managed = checks.filter((check) => check.hasEndpoint).length;
    const replaced =
      evicted.length > 0 ? `CiliumEndpoint on ${managed} of ${count(evicted.length, 'replacement')}; ` : '';
    const left =
      now.unmanaged.length > 0
        ? `${count(now.unmanaged.length, 'unmanaged pod')} remain`
        : 'no unmanaged pods remain';
    return outcome(statusFor(findings), `${unconfirmed.summary}${replaced}${left}`, {
      findings,
      evidence: unconfirmed.evidence,
    });
  },
});
