import { actedOn, openFindings } from '../../src/engine/open-findings.ts';
import type { DoneAction, Finding, Report, StepStatus, Verdict } from '../../src/engine/types.ts';

const STEP_MARK: Record<StepStatus, string> = {
  pass: 'ok  ',
  warn: 'warn',
  fail: 'FAIL',
  skip: 'skip',
  error: 'ERR ',
};

const VERDICT_TEXT: Record<Verdict, string> = {
  healthy: 'healthy: nothing to do',
  remediated: 'remediated: the problems found were fixed and verified',
  'needs-approval': 'needs approval: the plan below waits for a person',
  degraded: 'problems remain',
  failed: 'the run failed: see the step marked ERR',
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

function findingRows(findings: readonly Finding[]): string[][] {
  return [
    ['SEVERITY', 'CODE', 'TARGET', 'MESSAGE'],
    ...findings.map((f) => [f.severity, f.code, f.target, f.message]),
  ];
}

function actionRows(done: readonly DoneAction[]): string[][] {
  return [
    ['ACTION', 'TARGET', 'OUTCOME', 'WHY'],
    ...done.map((d) => [d.action, d.target, d.outcome, d.detail ?? '']),
  ];
}

/** A report as a person reads it: steps, findings, what was done, how to fix the rest, the verdict. */
export function formatReport(report: Report): string {
  const lines = [`${report.runbook} on ${report.cluster} (${report.mode})`];
  for (const step of report.steps)
    lines.push(`  ${STEP_MARK[step.status]}  ${step.id.padEnd(24)} ${step.summary}`);
  const findings = openFindings(report);
  const heading = actedOn(report.steps) ? '  Still open:' : '  Findings:';
  if (findings.length > 0) lines.push('', heading, ...table(findingRows(findings)).map((l) => `    ${l}`));
  const done = report.steps.flatMap((s) => s.done);
  if (done.length > 0) lines.push('', '  Actions:', ...table(actionRows(done)).map((l) => `    ${l}`));
  const fixes = [...new Set(findings.flatMap((f) => (f.fix ? [f.fix] : [])))];
  if (fixes.length > 0) lines.push('', '  How to fix:', ...fixes.map((fix) => `    - ${fix}`));
  lines.push('', `  Verdict: ${VERDICT_TEXT[report.verdict]} (${report.timings.durationMs} ms)`, '');
  return lines.join('\n');
}

/** One line per run: the one-screen summary after several runs. */
export function formatSummary(reports: readonly Report[]): string {
  const rows = reports.map((r) => {
    const steps = r.steps;
    const findings = openFindings(r).length;
    const done = steps.flatMap((s) => s.done).filter((d) => d.outcome === 'done').length;
    return [r.runbook, r.mode, r.verdict, String(findings), String(done)];
  });
  return table([['RUNBOOK', 'MODE', 'VERDICT', 'FINDINGS', 'ACTIONS DONE'], ...rows]).join('\n');
}
