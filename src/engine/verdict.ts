import { actedOn } from './open-findings.ts';
import type { Mode, StepReport, Verdict } from './types.ts';

function hasProblems(step: StepReport): boolean {
  return step.status === 'fail' || step.findings.some((finding) => finding.severity !== 'info');
}

/**
 * The run's verdict. After a write, the last step decides (it verifies what is left); without
 * one, any warning or critical finding means problems remain.
 */
export function verdictOf(mode: Mode, steps: readonly StepReport[], stoppedForApproval: boolean): Verdict {
  if (steps.some((step) => step.status === 'error')) return 'failed';
  if (stoppedForApproval) return 'needs-approval';
  const acted = actedOn(steps);
  if (acted && mode !== 'dry-run') {
    const last = steps[steps.length - 1];
    return last && !hasProblems(last) ? 'remediated' : 'degraded';
  }
  return steps.some(hasProblems) ? 'degraded' : 'healthy';
}

/** The CLI's exit code: 0 healthy or remediated, 1 problems remain, 2 the run failed. */
export function exitCodeOf(verdict: Verdict): 0 | 1 | 2 {
  if (verdict === 'healthy' || verdict === 'remediated') return 0;
  return verdict === 'failed' ? 2 : 1;
}
