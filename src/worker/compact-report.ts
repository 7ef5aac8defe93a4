import type { Report } from '../engine/types.ts';

/** DynamoDB items stop at 400 KB; the audit record keeps the report well inside that. */
export const MAX_STORED_REPORT_BYTES = 300_000;

const bytes = (report: Report) => Buffer.byteLength(JSON.stringify(report));

/**
 * The report as the audit record keeps it: whole when it fits; otherwise evidence first, then
 * findings past the first hundred of a step, give way (a step's summary says how many there were).
 * Verdict, steps, actions and the findings that matter most stay.
 */
export function compactReport(report: Report, maxBytes = MAX_STORED_REPORT_BYTES): Report {
  if (bytes(report) <= maxBytes) return report;
  const withoutEvidence: Report = {
    ...report,
    steps: report.steps.map((step) => ({
      ...step,
      evidence: step.evidence.slice(0, 3).map((e) => ({ ...e, text: e.text.slice(0, 500) })),
    })),
  };
  if (bytes(withoutEvidence) <= maxBytes) return withoutEvidence;
  return {
    ...withoutEvidence,
    steps: withoutEvidence.steps.map((step) =>
      step.findings.length > 100
        ? {
            ...step,
            findings: step.findings.slice(0, 100),
            summary: `${step.summary} (first 100 of ${step.findings.length} findings kept in the audit record)`,
          }
        : step,
    ),
  };
}
