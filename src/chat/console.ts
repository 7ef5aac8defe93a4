import type { Report, StepStatus } from '../engine/types.ts';
import { type Problem, type RunSummary, summarize } from '../report/summary.ts';
import { consoleRunLink } from './console-link.ts';
import { countsText, formatDuration, headline, showsPlan } from './report-summary.ts';
import { threadFor } from './threading.ts';
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
    ...list(
      'unconfirmed, may have happened',
      summary.unconfirmed.map((a) => `${a.action} ${a.target} (${a.detail})`),
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

const withLink = (lines: string[], link: string | undefined) =>
  link ? [...lines, `  console: ${link}`] : lines;

/**
 * The local chat sink: a short block per report on a stream (stdout for `responder serve`). It
 * threads like Slack (src/chat/threading.ts): the same problem is an update of its thread, a
 * changed state or a resolved problem a reply in it, a new problem a new thread.
 */
export function consoleSink(
  out: NodeJS.WritableStream,
  /** The web console's URL (`responder serve`'s own, known once it listens): each report ends with its run's page. */
  consoleUrl: () => string | undefined = () => undefined,
): ChatSink {
  const threads = new Map<string, { problem?: string; state?: string; id: number }>();
  let nextId = 1;

  function write(target: ChatTarget, tag: string, title: string, lines: readonly string[]): void {
    out.write(
      `[${target.channel} · ${target.threadKey} · ${tag}] ${title}\n${lines.map((l) => `${l}\n`).join('')}`,
    );
  }

  return {
    async postReport(report, target) {
      const summary = summarize(report);
      const active = threads.get(target.threadKey);
      const decision = threadFor(
        summary,
        active && { channel: target.channel, ts: String(active.id), ...active },
      );
      const id = decision.kind === 'update' && active ? active.id : nextId++;
      threads.set(target.threadKey, { id, ...decision.next });
      write(
        target,
        decision.kind === 'update' ? 'update' : 'new',
        headline(report, summary),
        withLink(reportLines(report, summary), consoleRunLink(consoleUrl(), report.runId)),
      );
      if (decision.kind === 'update' && decision.reply) write(target, 'reply', decision.reply, []);
      return {};
    },
    async settleApproval(message, _report, outcome) {
      out.write(`[${message.channel} · message ${message.ts} · buttons replaced] ${outcome}\n`);
    },
    async tellUser(channel, user, text) {
      out.write(`[${channel} · only <@${user}> sees this] ${text}\n`);
    },
    async postText(target, text) {
      const known = threads.has(target.threadKey);
      if (!known) threads.set(target.threadKey, { id: nextId++, problem: '' });
      write(target, known ? 'reply' : 'new', text, []);
      return {};
    },
  };
}
