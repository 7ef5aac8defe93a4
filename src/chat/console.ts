import type { Report, StepStatus } from '../engine/types.ts';
import { type Problem, type RunSummary, summarize } from '../report/summary.ts';
import { countsText, formatDuration, headline, showsPlan } from './report-summary.ts';
import type { ChatSink, ChatTarget } from './types.ts';

const STEP_MARK: Record<StepStatus, string> = {
  pass: 'ok',
  warn: 'warn',
  fail: 'FAIL',
  skip: 'skip',
  error: 'ERROR',
};

/** Lines per list, as in Slack: the console should read the same story. */
const MAX_LIST_LINES = 10;

function list(title: string, lines: readonly string[]): string[] {
  if (lines.length === 0) return [];
  const shown = lines.slice(0, MAX_LIST_LINES).map((line) => `    - ${line}`);
  if (lines.length > MAX_LIST_LINES) shown.push(`    …and ${lines.length - MAX_LIST_LINES} more`);
  return [`  ${title}:`, ...shown];
}

function problemLine(problem: Problem): string {
  const because = problem.because ? ` (${problem.because})` : '';
  const fix = problem.state !== 'fixed' && problem.fix ? ` (fix: ${problem.fix})` : '';
  return `[${problem.state}] ${problem.severity} ${problem.code} ${problem.target}: ${problem.message}${because}${fix}`;
}

function reportLines(report: Report, summary: RunSummary): string[] {
  return [
    `  ${summary.diagnosis}`,
    `  run ${report.runId} · mode ${report.mode} · took ${formatDuration(report.timings.durationMs)} · ${countsText(summary)}`,
    ...report.steps.map((step) => `  [${STEP_MARK[step.status]}] ${step.title}: ${step.summary}`),
    ...list('found', summary.found.map(problemLine)),
    ...list(
      'done',
      summary.done.map((a) => `${a.action} ${a.target}${a.detail ? ` (${a.detail})` : ''}`),
    ),
    ...(showsPlan(report)
      ? list(
          report.verdict === 'needs-approval' ? 'waiting for approval' : 'dry run: would do',
          summary.plan.map((p) => `${p.action} ${p.target}: ${p.reason}`),
        )
      : []),
    ...(summary.open.length > 0 ? [`  runbook: ${summary.docs}`] : []),
  ];
}

/**
 * The local chat sink: a short block per report on a stream (stdout for `responder serve`). Like
 * Slack, a second report for a known threadKey is an update of the same thread, and says so.
 */
export function consoleSink(out: NodeJS.WritableStream): ChatSink {
  const threads = new Set<string>();

  function write(target: ChatTarget, kind: 'report' | 'text', title: string, lines: readonly string[]): void {
    const known = threads.has(target.threadKey);
    threads.add(target.threadKey);
    const tag = !known ? 'new' : kind === 'report' ? 'update' : 'reply';
    out.write(
      `[${target.channel} · ${target.threadKey} · ${tag}] ${title}\n${lines.map((l) => `${l}\n`).join('')}`,
    );
  }

  return {
    async postReport(report, target) {
      const summary = summarize(report);
      write(target, 'report', headline(report, summary), reportLines(report, summary));
      return {};
    },
    async postText(target, text) {
      write(target, 'text', text, []);
      return {};
    },
  };
}
