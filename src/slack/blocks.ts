import {
  actionsOf,
  findingsOf,
  formatDuration,
  headline,
  planOf,
  showsPlan,
  VERDICT_LABEL,
} from '../chat/report-summary.ts';
import { actionKey } from '../engine/actuator.ts';
import type {
  ActionOutcome,
  DoneAction,
  Finding,
  PlannedAction,
  Report,
  Severity,
  StepReport,
  StepStatus,
  Verdict,
} from '../engine/types.ts';
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
} from './block-kit.ts';

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

const OUTCOME_EMOJI: Record<ActionOutcome, string> = {
  done: ':white_check_mark:',
  planned: ':hourglass:',
  blocked: ':no_entry:',
  skipped: ':fast_forward:',
  failed: ':x:',
};

/** Lines shown per list; the rest are counted, so a 500-pod incident stays one readable message. */
const MAX_LIST_LINES = 10;
/** Past this many steps they share one section, so the message stays under the 50-block limit. */
const MAX_STEP_SECTIONS = 40;

export interface ReportMessage {
  /** The notification and screen-reader text. */
  text: string;
  blocks: ChatBlock[];
}

/** A report as one Slack message; for `needs-approval`, with buttons to approve or reject the plan. */
export function reportBlocks(report: Report): ReportMessage {
  const blocks: ChatBlock[] = [
    {
      type: 'header',
      text: plainText(
        `${VERDICT_EMOJI[report.verdict]} ${report.runbook} · ${report.cluster} · ${VERDICT_LABEL[report.verdict]}`,
        LIMITS.headerText,
      ),
    },
    context(runContext(report)),
    ...stepBlocks(report.steps),
  ];

  const findings = findingsOf(report);
  if (findings.length > 0) {
    blocks.push(bulletSection(`*Findings (${findings.length})*`, findings.map(findingLine), MAX_LIST_LINES));
  }
  const actions = actionsOf(report);
  if (actions.length > 0) {
    blocks.push(bulletSection(`*Actions (${actions.length})*`, actions.map(actionLine), MAX_LIST_LINES));
  }
  if (report.verdict === 'needs-approval') blocks.push(...approvalBlocks(report));
  else if (showsPlan(report)) blocks.push(...dryRunPlanBlocks(planOf(report)));

  return { text: `${VERDICT_EMOJI[report.verdict]} ${headline(report)}`, blocks };
}

function runContext(report: Report): string {
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
  ].join(' · ');
}

function stepLine(step: StepReport): string {
  return `${STEP_EMOJI[step.status]} *${escapeMrkdwn(step.title)}*: ${escapeMrkdwn(step.summary)}`;
}

function stepBlocks(steps: readonly StepReport[]): ChatBlock[] {
  if (steps.length <= MAX_STEP_SECTIONS) return steps.map((step) => section(stepLine(step)));
  return [bulletSection(`*Steps (${steps.length})*`, steps.map(stepLine), MAX_STEP_SECTIONS)];
}

function findingLine(finding: Finding): string {
  const line = `${SEVERITY_EMOJI[finding.severity]} *${escapeMrkdwn(finding.code)}* \`${escapeMrkdwn(finding.target)}\`: ${escapeMrkdwn(finding.message)}`;
  return finding.fix ? `${line}\n    _Fix:_ ${escapeMrkdwn(finding.fix)}` : line;
}

function actionLine(action: DoneAction): string {
  const line = `${OUTCOME_EMOJI[action.outcome]} ${escapeMrkdwn(action.action)} \`${escapeMrkdwn(action.target)}\`: ${action.outcome}`;
  return action.detail ? `${line} (${escapeMrkdwn(action.detail)})` : line;
}

function planLine(action: PlannedAction): string {
  return `${escapeMrkdwn(action.action)} \`${escapeMrkdwn(action.target)}\`: ${escapeMrkdwn(action.reason)}`;
}

function dryRunPlanBlocks(plan: readonly PlannedAction[]): ChatBlock[] {
  if (plan.length === 0) return [];
  return [bulletSection('*Dry run: would do*', plan.map(planLine), MAX_LIST_LINES)];
}

/**
 * The plan and the buttons. The button value carries the keys a person approves, and Slack caps a
 * value at 2000 characters, so a very long plan is approved in parts: the message says which part.
 */
function approvalBlocks(report: Report): ChatBlock[] {
  const plan = planOf(report);
  const covered = largestApprovablePrefix(report.runId, plan);
  if (covered.length === 0) return dryRunPlanBlocks(plan);

  const keys = covered.map((action) => actionKey(action.action, action.target));
  const blocks: ChatBlock[] = [
    bulletSection(`*Waiting for approval (${covered.length})*`, covered.map(planLine), MAX_LIST_LINES),
  ];
  if (covered.length < plan.length) {
    blocks.push(
      context(
        `Approve covers the first ${covered.length} of ${plan.length} planned actions; the next run plans the rest.`,
      ),
    );
  }
  blocks.push(approvalButtons(report, keys));
  return blocks;
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
