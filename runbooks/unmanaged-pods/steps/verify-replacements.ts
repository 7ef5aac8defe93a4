import { outcome, statusFor } from '../../../src/engine/outcome.ts';
import type { Finding, Mode, Step } from '../../../src/engine/types.ts';
import {
  type Explanation,
  holdExplanation,
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

/** Why a pod is still unmanaged after the restart step: left alone, not evicted, or new since. */
function remainingExplanation(
  pod: UnmanagedPod,
  restarts: ReadonlyMap<string, Restart>,
  ctx: { mode: Mode; cilium: { namespace: string } },
): Explanation {
  const restart = restarts.get(pod.uid);
  return (
    holdExplanation(pod, ctx.cilium.namespace) ??
    (restart
      ? resultExplanation(restart.result, pod, ctx.mode)
      : {
          reason: 'it became unmanaged after the restart step; the next run restarts it',
          fix: deletePodCommand(pod),
        })
  );
}

/**
 * Step 4: after evictions, waits for each replacement to get a CiliumEndpoint, then looks again
 * and reports every pod still unmanaged with the reason it is. In dry-run nothing changed, so
 * `find-unmanaged` already says what remains.
 */
export const verifyReplacements: Step<UnmanagedPodsParams, UnmanagedPodsState> = {
  id: 'verify-replacements',
  title: 'Replacements are managed; what remains',
  writes: false,
  async when(ctx) {
    if (ctx.mode === 'dry-run') return 'dry-run: nothing was evicted, so nothing to verify';
    return (await firstScan(ctx)).unmanaged.length === 0 ? 'nothing to verify: no unmanaged pods' : undefined;
  },
  async run(ctx) {
    const before = await firstScan(ctx);

    const restarts = savedRestarts(ctx);
    const evicted = restarts.filter(({ result }) => result.outcome === 'done').map(({ pod }) => pod);
    const checks = evicted.length > 0 ? await awaitReplacements(ctx, evicted, before.seenUids) : [];
    const now = await scanCluster(ctx);
    const byUid = new Map(restarts.map((restart) => [restart.pod.uid, restart]));
    const findings = [
      ...replacementFindings(checks),
      ...now.unmanaged.map((pod) => unmanagedPodFinding(pod, remainingExplanation(pod, byUid, ctx))),
    ];

    const managed = checks.filter((check) => check.hasEndpoint).length;
    const replaced =
      evicted.length > 0 ? `CiliumEndpoint on ${managed} of ${count(evicted.length, 'replacement')}; ` : '';
    const left =
      now.unmanaged.length > 0
        ? `${count(now.unmanaged.length, 'unmanaged pod')} remain`
        : 'no unmanaged pods remain';
    return outcome(statusFor(findings), `${replaced}${left}`, { findings });
  },
};
