import { CONSOLE_URL_ENV, consoleRunLink } from '../../src/chat/console-link.ts';
import { countsText } from '../../src/chat/report-summary.ts';
import type { DoneAction, Report, StepStatus, Verdict } from '../../src/engine/types.ts';
import { type Problem, summarize } from '../../src/report/summary.ts';
import { CLI_WORDS } from './words.ts';

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
export function table(rows: readonly string[][], width?: number): string[] {
  const widths: number[] = [];
  for (const row of rows) {
    row.forEach((cell, i) => {
      widths[i] = Math.max(widths[i] ?? 0, cell.length);
    });
  }
  return rows.flatMap((row) => {
    const lead = row
      .slice(0, -1)
      .map((cell, i) => cell.padEnd(widths[i] ?? 0))
      .join('  ');
    const start = lead === '' ? 0 : lead.length + 2;
    const last = row.at(-1) ?? '';
    // Past the width, the last column wraps under itself.
    const room = width === undefined ? Number.POSITIVE_INFINITY : Math.max(width - start, 30);
    const [first = '', ...more] = wrapText(last, room);
    return [
      `${lead === '' ? '' : `${lead}  `}${first}`.trimEnd(),
      ...more.map((line) => `${' '.repeat(start)}${line}`),
    ];
  });
}

/** Words into lines of at most `width` characters (a longer word stands alone on its line). */
export function wrapText(text: string, width: number): string[] {
  if (text.length <= width) return [text];
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  lines.push(line);
  return lines;
}

/** The terminal width the report is laid out for. */
const COLUMNS = 100;

/** Each problem as an aligned head line (state, severity, code, target), its message wrapped below. */
function problemLines(problems: readonly Problem[]): string[] {
  const heads = table([
    ['STATE', 'SEVERITY', 'CODE', 'TARGET'],
    ...problems.map((p) => [p.state, p.severity, p.code, p.target]),
  ]);
  return [
    heads[0] as string,
    ...problems.flatMap((p, i) => [
      heads[i + 1] as string,
      ...wrapText(p.because ? `${p.message} (${p.because})` : p.message, COLUMNS - 10).map((l) => `  ${l}`),
    ]),
  ];
}

function actionRows(done: readonly DoneAction[]): string[][] {
  return [
    ['ACTION', 'TARGET', 'OUTCOME', 'WHY'],
    ...done.map((d) => [d.action, d.target, d.outcome, d.detail ?? '']),
  ];
}

/**
 * A report as a person reads it: the diagnosis, steps, what was found and done, how to fix the
 * rest, and the run's console page when a console is configured ($RESPONDER_CONSOLE_URL).
 */
export function formatReport(report: Report, consoleUrl = process.env[CONSOLE_URL_ENV]): string {
  const summary = summarize(report, CLI_WORDS);
  const lines = wrapText(
    `${report.runbook} on ${report.cluster} (${report.mode}): ${summary.diagnosis}`,
    COLUMNS,
  );
  for (const step of report.steps)
    lines.push(...table([[`  ${STEP_MARK[step.status]}`, step.id.padEnd(22), step.summary]], COLUMNS));
  if (summary.found.length > 0)
    lines.push(
      '',
      `  Found (${countsText(summary)}):`,
      ...problemLines(summary.found).map((l) => `    ${l}`),
    );
  const done = report.steps.flatMap((s) => s.done);
  if (done.length > 0)
    lines.push('', '  Actions:', ...table(actionRows(done), COLUMNS - 4).map((l) => `    ${l}`));
  const fixes = [...new Set(summary.open.flatMap((p) => (p.fix ? [p.fix] : [])))];
  if (fixes.length > 0)
    lines.push(
      '',
      '  How to fix:',
      ...fixes.flatMap((fix) =>
        wrapText(fix, COLUMNS - 6).map((line, i) => `${i === 0 ? '    - ' : '      '}${line}`),
      ),
      `    (runbook: ${summary.docs})`,
    );
  lines.push(
    '',
    `  Verdict: ${summary.verdictWord}: ${VERDICT_MEANING[report.verdict]} (${report.timings.durationMs} ms)`,
  );
  const link = consoleRunLink(consoleUrl, report.runId);
  if (link) lines.push(`  Console: ${link}`);
  lines.push('');
  return lines.join('\n');
}

/** One line per run: the one-screen summary after several runs. */
export function formatSummary(reports: readonly Report[]): string {
  const rows = reports.map((r) => {
    const { verdictWord, counts, done } = summarize(r, CLI_WORDS);
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
