import { actionKey } from '../engine/actuator.ts';
import type { DoneAction, Finding, Mode, PlannedAction, Report, Severity, Verdict } from '../engine/types.ts';

/**
 * One report model for every reader: the CLI, Slack and the audit record all say the same
 * diagnosis, the same counts and the same state for each problem.
 */

/** Where a problem stands after the run. */
export type ProblemState = 'fixed' | 'open' | 'blocked' | 'planned';

export interface Problem extends Finding {
  state: ProblemState;
  /**
   * For blocked or planned: the actuator's words (a budget, a cap, approval), unless the message
   * says them; for a symptom fixed with no write on it: what shows it gone.
   */
  because?: string;
  /** For blocked or planned: the actuator's words, always (the one line names a blocked one's reason). */
  decision?: string;
}

export interface RunSummary {
  runbook: string;
  cluster: string;
  mode: Mode;
  verdict: Verdict;
  /** The verdict in the one spelling every reader uses. */
  verdictWord: string;
  /** What is wrong, where, what was done, what is left: one line. */
  diagnosis: string;
  /** Every problem once (by code and target), worst first, in its current state. */
  found: Problem[];
  /** The writes that happened. */
  done: DoneAction[];
  /** The writes that may have happened: sent, and their answer lost (a 504, a 500, a reset). */
  unconfirmed: DoneAction[];
  /** The writes the run wants (dry-run or waiting for approval), once each. */
  plan: PlannedAction[];
  /** Found minus fixed: what a person still has to deal with. */
  open: Problem[];
  counts: { found: number; fixed: number; open: number };
  /** The runbook's page, with the fixes it does not make itself explained. */
  docs: string;
}

export const VERDICT_WORD: Record<Verdict, string> = {
  healthy: 'healthy',
  remediated: 'remediated',
  'needs-approval': 'needs approval',
  degraded: 'degraded',
  failed: 'failed',
};

const SEVERITY_RANK: Record<Severity, number> = { critical: 0, warning: 1, info: 2 };

/** What an action did, in words for the diagnosis: `3 pods evicted`. */
const ACTION_WORDS: Record<string, [string, string]> = {
  'evict-pod': ['pod evicted', 'pods evicted'],
  'restart-agent': ['agent restarted', 'agents restarted'],
};

/** What an action that may have happened is called: `2 pod evictions`. */
const ATTEMPT_WORDS: Record<string, [string, string]> = {
  'evict-pod': ['pod eviction', 'pod evictions'],
  'restart-agent': ['agent restart', 'agent restarts'],
};

function problemKey(finding: Pick<Finding, 'code' | 'target'>): string {
  return `${finding.code}\u0000${finding.target}`;
}

/** Every finding once; a later step's word on the same problem wins, as it is the newer state. */
function latestFindings(report: Report): Finding[] {
  const byProblem = new Map<string, Finding>();
  for (const finding of report.steps.flatMap((step) => step.findings)) {
    const key = problemKey(finding);
    byProblem.delete(key);
    byProblem.set(key, finding);
  }
  return [...byProblem.values()];
}

/** The writes the run wants, once each. */
export function planOf(report: Report): PlannedAction[] {
  const byKey = new Map<string, PlannedAction>();
  for (const action of report.steps.flatMap((step) => step.plan)) {
    const key = actionKey(action.action, action.target);
    if (!byKey.has(key)) byKey.set(key, action);
  }
  return [...byKey.values()];
}

/**
 * A problem is fixed when a write on its target happened and the last step (which verifies) no
 * longer lists it, or when a step after the writes saw the symptom gone (a pod Ready again once
 * its node marks host traffic); blocked or planned when the actuator said so for its target;
 * otherwise open. A root cause no write touches (a Helm value, a security group) stays open until
 * a run finds it gone.
 */
function stateOf(
  finding: Finding,
  report: Report,
  actions: ReadonlyMap<string, DoneAction>,
  stillListed: ReadonlySet<string>,
  cleared: ReadonlyMap<string, string>,
): Pick<Problem, 'state' | 'because' | 'decision'> {
  const how = cleared.get(problemKey(finding));
  if (report.mode !== 'dry-run' && how !== undefined) return { state: 'fixed', because: how };
  const action = actions.get(finding.target);
  if (!action) return { state: 'open' };
  if (action.outcome === 'done' || action.outcome === 'unconfirmed') {
    const verified = report.mode !== 'dry-run' && !stillListed.has(problemKey(finding));
    if (verified) return { state: 'fixed' };
    const because =
      action.outcome === 'done' ? 'acted on, but still found' : 'write unconfirmed, still found';
    return { state: 'open', because };
  }
  const state: ProblemState = action.outcome === 'planned' ? 'planned' : 'blocked';
  // The actuator's words, unless the finding already says them (or a dry run's plan is all they say).
  const because = action.detail;
  const said =
    !because || finding.message.includes(because) || (state === 'planned' && report.mode === 'dry-run');
  const decision = because ? { decision: because } : {};
  return said ? { state, ...decision } : { state, because, ...decision };
}

function counted(n: number, [one, many]: [string, string]): string {
  return `${n} ${n === 1 ? one : many}`;
}

function actionWords(
  done: readonly DoneAction[],
  words: Record<string, [string, string]>,
  fallback: string,
): string {
  const byAction = new Map<string, number>();
  for (const action of done) byAction.set(action.action, (byAction.get(action.action) ?? 0) + 1);
  return [...byAction]
    .map(([action, n]) => counted(n, words[action] ?? [`${action} ${fallback}`, `${action} ${fallback}`]))
    .join(', ');
}

/** `; 1 pod eviction may have happened (its answer was lost)`, or nothing. */
function unconfirmedWords(unconfirmed: readonly DoneAction[]): string {
  if (unconfirmed.length === 0) return '';
  return `; ${actionWords(unconfirmed, ATTEMPT_WORDS, 'write')} may have happened (the answer was lost)`;
}

/**
 * At most `max` characters, cut between words (a reader wraps the line; a word cut in half, or a
 * command, reads as something else).
 */
export function shorten(text: string, max = 140): string {
  if (text.length <= max) return text;
  const space = text.lastIndexOf(' ', max - 1);
  let kept = text.slice(0, space > 0 ? space : max - 1);
  // A list in parentheses cut short reads better left out whole.
  const open = kept.lastIndexOf(' (');
  if (open > 0 && !kept.slice(open).includes(')')) kept = kept.slice(0, open);
  return `${kept.replace(/[\s,;:]+$/, '')}…`;
}

/** A fix in the one line only when it fits whole: half a command is worse than none. */
const FIX_IN_DIAGNOSIS = 160;

/**
 * The one line: what is wrong and where, what was done, what is left and the first thing to do.
 * Its counts are the counts every reader shows (found, fixed, open), and the open ones are broken
 * down by state, so the line and a table of the problems never disagree.
 */
function diagnose(summary: Omit<RunSummary, 'diagnosis'>, words: ReaderWords, report: Report): string {
  const { found, done, open, counts, mode } = summary;
  if (summary.verdict === 'failed') {
    const broken = report.steps.find((step) => step.status === 'error');
    return broken
      ? `The run failed at ${broken.id}: ${shorten(broken.summary, 200)}`
      : 'The run failed before it could decide.';
  }
  if (found.length === 0) return `Nothing wrong found on ${summary.cluster}.`;
  const fixed =
    counts.fixed > 0
      ? `${counts.fixed} of ${counts.found} fixed and verified${done.length > 0 ? ` (${actionWords(done, ACTION_WORDS, 'done')})` : ''}`
      : `${counts.found} ${counts.found === 1 ? 'problem' : 'problems'} found`;
  const head = `${fixed}${unconfirmedWords(summary.unconfirmed)}`;
  if (open.length === 0) return `${head}.`;
  const parts: string[] = [];
  const planned = open.filter((problem) => problem.state === 'planned').length;
  if (planned > 0)
    parts.push(
      mode === 'dry-run' ? `${planned} would be fixed with ${words.apply}` : `${planned} wait for approval`,
    );
  const blocked = open.filter((problem) => problem.state === 'blocked');
  if (blocked.length > 0)
    parts.push(`${blocked.length} blocked (${shorten(blocked[0]?.decision ?? 'see the list', 80)})`);
  const rest = open.filter((problem) => problem.state === 'open');
  const cause = rootCause(rest, found);
  const first = cause ?? rest.find((problem) => problem.severity !== 'info') ?? rest[0];
  if (first) {
    const lead = `${rest.length} ${rest.length === 1 ? 'needs' : 'need'} a person${cause ? ', the cause' : ''}: `;
    const fix = first.fix && first.fix.length <= FIX_IN_DIAGNOSIS ? `; fix: ${first.fix}` : '';
    parts.push(`${lead}${shorten(first.message)}${fix}`);
  }
  const line = `${head}, ${counts.open} open: ${parts.join('; ')}`;
  return line.endsWith('…') ? line : `${line}.`;
}

/**
 * The open problem that explains the others: one of its kind (a setting, a rule), among several
 * problems. Many problems of one kind (pods, paths) are symptoms; the lone one is why they recur.
 */
function rootCause(open: readonly Problem[], found: readonly Problem[]): Problem | undefined {
  if (found.length < 2) return undefined;
  const perCode = new Map<string, number>();
  for (const problem of found) perCode.set(problem.code, (perCode.get(problem.code) ?? 0) + 1);
  return open.find(
    (problem) => problem.severity !== 'info' && perCode.get(problem.code) === 1 && problem.fix,
  );
}

/**
 * How a reader names what a person types. The model says the action (a run that writes would fix
 * these); the reader says how to ask for it: `--mode auto` in the CLI, `--apply` in Slack.
 */
export interface ReaderWords {
  /** How to ask for a run that writes. */
  apply: string;
}

/** For readers with no command line of their own: the audit record, the console sink. */
export const PLAIN_WORDS: ReaderWords = { apply: 'mode auto' };

/** The report model every reader renders, in the reader's words. */
export function summarize(report: Report, words: ReaderWords = PLAIN_WORDS): RunSummary {
  const actions = new Map<string, DoneAction>();
  // The decision on a target, the latest winning: a done eviction outranks its earlier plan.
  for (const action of report.steps.flatMap((step) => step.done)) {
    const earlier = actions.get(action.target);
    if (earlier?.outcome !== 'done') actions.set(action.target, action);
  }
  const last = report.steps.at(-1);
  const stillListed = new Set((last?.findings ?? []).map(problemKey));
  const cleared = new Map(
    report.steps.flatMap((step) => step.cleared ?? []).map((entry) => [problemKey(entry), entry.how]),
  );
  const found = latestFindings(report)
    .map((finding): Problem => {
      const problem: Problem = { ...finding, ...stateOf(finding, report, actions, stillListed, cleared) };
      // A dry run's plan would fix it: the first way out is to ask for the run that writes.
      if (problem.state === 'planned' && report.mode === 'dry-run' && problem.fix)
        problem.fix = `Run with ${words.apply} to let the responder do it, or by hand: ${problem.fix}`;
      return problem;
    })
    .sort((a, b) => SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity]);
  const open = found.filter((problem) => problem.state !== 'fixed');
  const decisions = report.steps.flatMap((step) => step.done);
  const done = decisions.filter((action) => action.outcome === 'done');
  const unconfirmed = decisions.filter((action) => action.outcome === 'unconfirmed');
  const partial: Omit<RunSummary, 'diagnosis'> = {
    runbook: report.runbook,
    cluster: report.cluster,
    mode: report.mode,
    verdict: report.verdict,
    verdictWord: VERDICT_WORD[report.verdict],
    found,
    done,
    unconfirmed,
    plan: planOf(report),
    open,
    counts: { found: found.length, fixed: found.length - open.length, open: open.length },
    docs: `runbooks/${report.runbook}/README.md`,
  };
  return { ...partial, diagnosis: diagnose(partial, words, report) };
}
