import { countsText } from '../../src/chat/report-summary.ts';
import type { DoneAction, Report, StepStatus, Verdict } from '../../src/engine/types.ts';
import { type Problem, summarize } from '../../src/report/summary.ts';

/** A step's status in four columns, shared by every terminal view. */
export const STEP_MARK: Record<StepStatus, string> = {
  pass: 'ok  ',
  warn: 'warn',
  fail: 'FAIL',
  skip: 'skip',
  error: 'ERR ',
};

/** After the verdict word, which is the same everywhere: what it means here. */
const VERDICT_MEANING: Record<Verdict, string> = {
  healthy: 'nothing to do',
  remediated: 'the problems the responder fixes were fixed and verified',
  'needs-approval': 'the plan below waits for a person',
  degraded: 'problems remain',
  failed: 'see the step marked ERR',
};

/** Lays out rows as columns separated by two spaces (the last column runs free). */
export function table(rows: readonly string[][]): string[] {
  const widths: number[] = [];
  for (const row of rows) {
    row.forEach((cell, i) => {
      widths[i] = Math.max(widths[i] ?? 0, cell.length);
    });
  }
  return rows.map((row) =>
    row
      .map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd(),
  );
}

function problemRows(problems: readonly Problem[]): string[][] {
  return [
    ['STATE', 'SEVERITY', 'CODE', 'TARGET', 'MESSAGE'],
    ...problems.map((p) => [
      p.state,
      p.severity,
      p.code,
      p.target,
      p.because ? `${p.message} (${p.because})` : p.message,
    ]),
  ];
}

function actionRows(done: readonly DoneAction[]): string[][] {
  return [
    ['ACTION', 'TARGET', 'OUTCOME', 'WHY'],
    ...done.map((d) => [d.action, d.target, d.outcome, d.detail ?? '']),
  ];
}

/** A report as a person reads it: the diagnosis, steps, what was found and done, how to fix the rest. */
export function formatReport(report: Report): string {
  const summary = summarize(report);
  const lines = [`${report.runbook} on ${report.cluster} (${report.mode}): ${summary.diagnosis}`];
  for (const step of report.steps)
    lines.push(`  ${STEP_MARK[step.status]}  ${step.id.padEnd(24)} ${step.summary}`);
  if (summary.found.length > 0)
    lines.push(
      '',
      `  Found (${countsText(summary)}):`,
      ...table(problemRows(summary.found)).map((l) => `    ${l}`),
    );
  const done = report.steps.flatMap((s) => s.done);
  if (done.length > 0) lines.push('', '  Actions:', ...table(actionRows(done)).map((l) => `    ${l}`));
  const fixes = [...new Set(summary.open.flatMap((p) => (p.fix ? [p.fix] : [])))];
  if (fixes.length > 0)
    lines.push('', '  How to fix:', ...fixes.map((fix) => `    - ${fix}`), `    (runbook: ${summary.docs})`);
  lines.push(
    '',
    `  Verdict: ${summary.verdictWord}: ${VERDICT_MEANING[report.verdict]} (${report.timings.durationMs} ms)`,
    '',
  );
  return lines.join('\n');
}

/** One line per run: the one-screen summary after several runs. */
export function formatSummary(reports: readonly Report[]): string {
  const rows = reports.map((r) => {
    const { verdictWord, counts, done } = summarize(r);
    return [
      r.runbook,
      r.mode,
      verdictWord,
      String(counts.found),
      String(counts.fixed),
      String(counts.open),
      String(done.length),
    ];
  });
  return table([['RUNBOOK', 'MODE', 'VERDICT', 'FOUND', 'FIXED', 'OPEN', 'DONE'], ...rows]).join('\n');
}
