import { countsText, formatDuration, headline, showsPlan } from '../chat/report-summary.ts';
import { actionKey } from '../engine/actuator.ts';
import type {
  DoneAction,
  PlannedAction,
  Report,
  Severity,
  StepReport,
  StepStatus,
  Verdict,
} from '../engine/types.ts';
import { type Problem, type ProblemState, type RunSummary, summarize } from '../report/summary.ts';
import { approvalValue, MAX_BUTTON_VALUE_CHARS } from './approval-value.ts';
import {
  type ActionsBlock,
  bulletSection,
  type ChatBlock,
  context,
  escapeMrkdwn,
  LIMITS,
  plainText,
  section,
  truncate,
} from './block-kit.ts';
import { SLACK_WORDS } from './words.ts';

const VERDICT_EMOJI: Record<Verdict, string> = {
  healthy: ':large_green_circle:',
  remediated: ':white_check_mark:',
  'needs-approval': ':raised_hand:',
  degraded: ':warning:',
  failed: ':x:',
};

const STEP_EMOJI: Record<StepStatus, string> = {
  pass: ':white_check_mark:',
  warn: ':warning:',
  fail: ':x:',
  skip: ':fast_forward:',
  error: ':boom:',
};

const SEVERITY_EMOJI: Record<Severity, string> = {
  critical: ':red_circle:',
  warning: ':large_orange_circle:',
  info: ':large_blue_circle:',
};

const STATE_EMOJI: Record<ProblemState, string> = {
  fixed: ':white_check_mark:',
  planned: ':hourglass:',
  blocked: ':no_entry:',
  open: ':red_circle:',
};

/** Lines shown per list; the rest are counted, so a 500-pod incident stays one readable message. */
const MAX_LIST_LINES = 10;
/** Past this many steps (or this much text) they share one section, so the message stays small. */
const MAX_STEP_SECTIONS = 40;
/**
 * Characters per part, so that the whole message stays under Slack's ~13k: the diagnosis, the
 * steps, the problems (the most), what was done, and the plan.
 */
const BUDGET = { diagnosis: 700, context: 600, steps: 3000, found: 3000, done: 1500, plan: 1500 } as const;

export interface ReportMessage {
  /** The notification and screen-reader text. */
  text: string;
  blocks: ChatBlock[];
}

/** A report as one Slack message; for `needs-approval`, with buttons to approve or reject the plan. */
export function reportBlocks(
  report: Report,
  summary: RunSummary = summarize(report, SLACK_WORDS),
  /** The run's console page, which the message ends with when a console is configured. */
  consoleLink?: string,
): ReportMessage {
  const blocks: ChatBlock[] = [
    {
      type: 'header',
      text: plainText(
        `${VERDICT_EMOJI[report.verdict]} ${report.runbook} · ${report.cluster} · ${summary.verdictWord}`,
        LIMITS.headerText,
      ),
    },
    section(truncate(escapeMrkdwn(summary.diagnosis), BUDGET.diagnosis)),
    context(truncate(runContext(report, summary), BUDGET.context)),
  ];
  const head = blocks.length;

  if (summary.found.length > 0) {
    blocks.push(
      bulletSection(
        `*Found (${countsText(summary)})*`,
        summary.found.map(problemLine),
        MAX_LIST_LINES,
        BUDGET.found,
      ),
    );
  }
  if (summary.done.length > 0) {
    blocks.push(
      bulletSection(
        `*Done (${summary.done.length})*`,
        summary.done.map(actionLine),
        MAX_LIST_LINES,
        BUDGET.done,
      ),
    );
  }
  if (summary.unconfirmed.length > 0) {
    blocks.push(
      bulletSection(
        `*Unconfirmed, may have happened (${summary.unconfirmed.length})*`,
        summary.unconfirmed.map(actionLine),
        MAX_LIST_LINES,
        BUDGET.done,
      ),
    );
  }
  if (report.verdict === 'needs-approval') blocks.push(...approvalBlocks(report, summary.plan));
  else if (showsPlan(report)) blocks.push(...dryRunPlanBlocks(summary.plan));
  if (summary.open.length > 0) blocks.push(context(`Runbook: \`${escapeMrkdwn(summary.docs)}\``));
  if (consoleLink) blocks.push(context(`<${consoleLink}|Open this run in the console>`));
  // The steps come after the head, in whatever room the rest of the message leaves them.
  blocks.splice(head, 0, ...stepBlocks(report.steps, LIMITS.blocksPerMessage - blocks.length));

  return { text: `${VERDICT_EMOJI[report.verdict]} ${headline(report, summary)}`, blocks };
}

function runContext(report: Report, summary: RunSummary): string {
  const finishedAt = Math.floor(Date.parse(report.timings.finishedAt) / 1000);
  // Slack shows the date in each reader's time zone; the ISO text is the fallback.
  const finished = Number.isFinite(finishedAt)
    ? `<!date^${finishedAt}^{date_short_pretty} {time}|${report.timings.finishedAt}>`
    : escapeMrkdwn(report.timings.finishedAt);
  return [
    `run \`${escapeMrkdwn(report.runId)}\``,
    `mode \`${report.mode}\``,
    `took ${formatDuration(report.timings.durationMs)}`,
    `finished ${finished}`,
    countsText(summary),
  ].join(' · ');
}

function stepLine(step: StepReport): string {
  return `${STEP_EMOJI[step.status]} *${escapeMrkdwn(step.title)}*: ${escapeMrkdwn(step.summary)}`;
}

/** A section a step while they fit in `room` blocks and the budget, else one list of them. */
function stepBlocks(steps: readonly StepReport[], room: number): ChatBlock[] {
  const lines = steps.map(stepLine);
  const chars = lines.reduce((sum, line) => sum + line.length, 0);
  if (steps.length <= Math.min(MAX_STEP_SECTIONS, room) && chars <= BUDGET.steps)
    return lines.map((line) => section(line));
  return [bulletSection(`*Steps (${steps.length})*`, lines, MAX_STEP_SECTIONS, BUDGET.steps)];
}

function problemLine(problem: Problem): string {
  const because = problem.because ? ` (${escapeMrkdwn(problem.because)})` : '';
  const line = `${STATE_EMOJI[problem.state]} ${SEVERITY_EMOJI[problem.severity]} *${escapeMrkdwn(problem.code)}* \`${escapeMrkdwn(problem.target)}\` _${problem.state}_${because}: ${escapeMrkdwn(problem.message)}`;
  return problem.state !== 'fixed' && problem.fix ? `${line}\n    _Fix:_ ${escapeMrkdwn(problem.fix)}` : line;
}

function actionLine(action: DoneAction): string {
  const line = `${escapeMrkdwn(action.action)} \`${escapeMrkdwn(action.target)}\``;
  return action.detail ? `${line} (${escapeMrkdwn(action.detail)})` : line;
}

function planLine(action: PlannedAction): string {
  return `${escapeMrkdwn(action.action)} \`${escapeMrkdwn(action.target)}\`: ${escapeMrkdwn(action.reason)}`;
}

function dryRunPlanBlocks(plan: readonly PlannedAction[]): ChatBlock[] {
  if (plan.length === 0) return [];
  return [bulletSection('*Dry run: would do*', plan.map(planLine), MAX_LIST_LINES, BUDGET.plan)];
}

/**
 * The plan and the buttons. The button value carries the keys a person approves, and Slack caps a
 * value at 2000 characters, so a very long plan is approved in parts: the message says which part.
 */
function approvalBlocks(report: Report, plan: readonly PlannedAction[]): ChatBlock[] {
  const covered = largestApprovablePrefix(report.runId, plan);
  if (covered.length === 0) return dryRunPlanBlocks(plan);

  const keys = covered.map((action) => actionKey(action.action, action.target));
  const blocks: ChatBlock[] = [
    bulletSection(
      `*Waiting for approval (${covered.length})*`,
      covered.map(planLine),
      MAX_LIST_LINES,
      BUDGET.plan,
    ),
  ];
  if (covered.length < plan.length) {
    blocks.push(
      context(
        `Approve covers the first ${covered.length} of ${plan.length} planned actions; the next run plans the rest.`,
      ),
    );
  }
  blocks.push(context(paramsLine(report)), approvalButtons(report, keys));
  return blocks;
}

/**
 * The params the plan was made with and who set each, so an approver sees what shaped it (a
 * `gracePeriodSeconds=0` adds pods only seconds old). Only approvers may set params on a run that
 * can write from Slack (src/routing/authority.ts); the config's and the routes' are shown too.
 */
function paramsLine(report: Report): string {
  const params = report.params ?? [];
  if (params.length === 0) return "Params: none (the runbook's defaults).";
  // Values are the sender's text: escaped. `by` is ours (`config`, `route`, a `<@U…>` mention).
  const shown = params.map(
    ({ key, value, by }) => `\`${key}=${escapeMrkdwn(JSON.stringify(value))}\` set by ${by}`,
  );
  return `Params: ${shown.join(', ')}.`;
}

function largestApprovablePrefix(runId: string, plan: readonly PlannedAction[]): PlannedAction[] {
  const covered: PlannedAction[] = [];
  const keys: string[] = [];
  for (const action of plan) {
    keys.push(actionKey(action.action, action.target));
    if (approvalValue(runId, keys).length > MAX_BUTTON_VALUE_CHARS) break;
    covered.push(action);
  }
  return covered;
}

function approvalButtons(report: Report, keys: string[]): ActionsBlock {
  const value = approvalValue(report.runId, keys);
  const count = `${keys.length} ${keys.length === 1 ? 'action' : 'actions'}`;
  return {
    type: 'actions',
    block_id: 'approval',
    elements: [
      {
        type: 'button',
        action_id: 'approve',
        style: 'primary',
        text: plainText(`Approve ${count}`, LIMITS.buttonText),
        value,
        confirm: {
          title: plainText(`Approve ${count}?`, LIMITS.confirmTitle),
          text: plainText(
            `The responder re-checks each target on ${report.cluster}, then runs exactly these ${count}.`,
            LIMITS.confirmText,
          ),
          confirm: plainText('Approve', LIMITS.buttonText),
          deny: plainText('Cancel', LIMITS.buttonText),
        },
      },
      {
        type: 'button',
        action_id: 'reject',
        style: 'danger',
        text: plainText('Reject', LIMITS.buttonText),
        value,
      },
    ],
  };
}
