import type { Finding, Report, StepReport } from './types.ts';

/** Whether any step's write actually happened. */
export function actedOn(steps: readonly StepReport[]): boolean {
  return steps.some((step) => step.done.some((action) => action.outcome === 'done'));
}

/**
 * The findings a person still has to deal with, once each. After the run acted, its last step
 * (which verifies) says what is left, as the verdict does; otherwise every finding counts.
 */
export function openFindings(report: Report): Finding[] {
  const last = report.steps[report.steps.length - 1];
  const findings =
    actedOn(report.steps) && last ? last.findings : report.steps.flatMap((step) => step.findings);
  const unique = new Map<string, Finding>();
  for (const finding of findings) unique.set(`${finding.code} ${finding.target}`, finding);
  return [...unique.values()];
}
