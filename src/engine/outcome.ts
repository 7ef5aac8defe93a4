import type { Cleared, DoneAction, Evidence, Finding, Outcome, PlannedAction, StepStatus } from './types.ts';

/** Builds an Outcome with empty lists for what a step does not report. */
export function outcome(
  status: StepStatus,
  summary: string,
  parts: {
    findings?: Finding[];
    evidence?: Evidence[];
    plan?: PlannedAction[];
    done?: DoneAction[];
    cleared?: Cleared[];
  } = {},
): Outcome {
  return {
    status,
    summary,
    findings: parts.findings ?? [],
    evidence: parts.evidence ?? [],
    plan: parts.plan ?? [],
    done: parts.done ?? [],
    ...(parts.cleared?.length ? { cleared: parts.cleared } : {}),
  };
}

/** `fail` when any finding is warning or critical, else `pass`: the usual verdict of a check step. */
export function statusFor(findings: readonly Finding[]): StepStatus {
  return findings.some((f) => f.severity !== 'info') ? 'fail' : 'pass';
}
