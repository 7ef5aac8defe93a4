import { actedOn, unconfirmedIn } from './open-findings.ts';
import type { Mode, StepReport, Verdict } from './types.ts';

function hasProblems(step: StepReport): boolean {
  return step.status === 'fail' || step.findings.some((finding) => finding.severity !== 'info');
}

/**
 * Whether a step that ran after every write that may have happened (its answer lost) looked at
 * the cluster: only such a step can say it did.
 */
function checkedAfterUnconfirmed(steps: readonly StepReport[], last: StepReport): boolean {
  if (!steps.some(unconfirmedIn)) return true;
  return last.status !== 'skip' && !unconfirmedIn(last);
}

/**
 * The run's verdict. After a write (or one that may have happened), the last step decides (it
 * verifies what is left); a write whose answer was lost is never called remediated unless a
 * later step ran to check it. Without a write, any warning or critical finding means problems
 * remain.
 */
export function verdictOf(mode: Mode, steps: readonly StepReport[], stoppedForApproval: boolean): Verdict {
  if (steps.some((step) => step.status === 'error')) return 'failed';
  if (stoppedForApproval) return 'needs-approval';
  const acted = actedOn(steps);
  if (acted && mode !== 'dry-run') {
    const last = steps[steps.length - 1];
    return last && !hasProblems(last) && checkedAfterUnconfirmed(steps, last) ? 'remediated' : 'degraded';
  }
  return steps.some(hasProblems) ? 'degraded' : 'healthy';
}

/** The CLI's exit code: 0 healthy or remediated, 1 problems remain, 2 the run failed. */
export function exitCodeOf(verdict: Verdict): 0 | 1 | 2 {
  if (verdict === 'healthy' || verdict === 'remediated') return 0;
  return verdict === 'failed' ? 2 : 1;
}
