import type { Report } from '../engine/types.ts';
import { type RunSummary, summarize } from './summary.ts';

/**
 * The whole report as plain text, nothing left out: every problem with its state and fix, every
 * write, every step's evidence. Chat messages show the first few of each list; this is the rest,
 * attached where the message had to stop.
 */
export function fullReportText(report: Report, summary: RunSummary = summarize(report)): string {
  const lines = [
    `${report.runbook} on ${report.cluster} (${report.mode}), run ${report.runId}: ${summary.verdictWord}`,
    summary.diagnosis,
    '',
    `Found (${summary.counts.found} found, ${summary.counts.fixed} fixed, ${summary.counts.open} open):`,
    ...summary.found.flatMap((p) => [
      `  [${p.state}] ${p.severity} ${p.code} ${p.target}: ${p.message}${p.because ? ` (${p.because})` : ''}`,
      ...(p.state !== 'fixed' && p.fix ? [`      fix: ${p.fix}`] : []),
    ]),
    '',
    `Done (${summary.done.length}):`,
    ...summary.done.map((a) => `  ${a.action} ${a.target}${a.detail ? ` (${a.detail})` : ''}`),
    ...(summary.unconfirmed.length > 0
      ? [
          '',
          `Unconfirmed, may have happened (${summary.unconfirmed.length}):`,
          ...summary.unconfirmed.map((a) => `  ${a.action} ${a.target} (${a.detail})`),
        ]
      : []),
    '',
    'Evidence:',
    ...report.steps.flatMap((step) =>
      step.evidence.flatMap((e) => [
        `  ${step.id} · ${e.source}:`,
        ...e.text.split('\n').map((l) => `    ${l}`),
      ]),
    ),
    '',
    `Runbook: ${summary.docs}`,
  ];
  return `${lines.join('\n')}\n`;
}

/** Past this, the message cannot show it all: the full text goes along as a file. */
const SHOWN_PER_LIST = 10;
const EVIDENCE_INLINE_CHARS = 1500;

/** Whether a chat message of this report leaves something out that a person may need. */
export function needsFullText(report: Report, summary: RunSummary = summarize(report)): boolean {
  const lists = [summary.found, summary.done, summary.unconfirmed];
  if (lists.some((list) => list.length > SHOWN_PER_LIST)) return true;
  return report.steps.some((step) => step.evidence.some((e) => e.text.length > EVIDENCE_INLINE_CHARS));
}
