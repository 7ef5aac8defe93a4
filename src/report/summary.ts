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
   * For blocked or planned: the actuator's words (a budget, a cap, approval); for a symptom fixed
   * with no write on it: what shows it gone.
   */
  because?: string;
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
): Pick<Problem, 'state' | 'because'> {
  const how = cleared.get(problemKey(finding));
  if (report.mode !== 'dry-run' && how !== undefined) return { state: 'fixed', because: how };
  const action = actions.get(finding.target);
  if (!action) return { state: 'open' };
  if (action.outcome === 'done') {
    const verified = report.mode !== 'dry-run' && !stillListed.has(problemKey(finding));
    return verified ? { state: 'fixed' } : { state: 'open', because: 'acted on, but still found' };
  }
  const state: ProblemState = action.outcome === 'planned' ? 'planned' : 'blocked';
  // The actuator's words, unless the finding already says them (or a dry run's plan is all they say).
  const because = action.detail;
  const said =
    !because || finding.message.includes(because) || (state === 'planned' && report.mode === 'dry-run');
  return said ? { state } : { state, because };
}

function counted(n: number, [one, many]: [string, string]): string {
  return `${n} ${n === 1 ? one : many}`;
}

function doneWords(done: readonly DoneAction[]): string {
  const byAction = new Map<string, number>();
  for (const action of done) byAction.set(action.action, (byAction.get(action.action) ?? 0) + 1);
  return [...byAction]
    .map(([action, n]) => counted(n, ACTION_WORDS[action] ?? [`${action} done`, `${action} done`]))
    .join(', ');
}

function shorten(text: string, max = 140): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** The one line: what is wrong and where, what was done, what is left and the first thing to do. */
function diagnose(summary: Omit<RunSummary, 'diagnosis'>): string {
  const { found, done, open, counts, mode } = summary;
  if (summary.verdict === 'failed')
    return `The run failed before it could decide; see the step marked error.`;
  if (found.length === 0) return `Nothing wrong found on ${summary.cluster}.`;
  const parts: string[] = [];
  if (counts.fixed > 0)
    parts.push(`${counts.fixed} of ${counts.found} fixed and verified (${doneWords(done)})`);
  else parts.push(`${counts.found} ${counts.found === 1 ? 'problem' : 'problems'} found`);
  const planned = open.filter((problem) => problem.state === 'planned').length;
  if (planned > 0)
    parts.push(
      mode === 'dry-run' ? `${planned} would be fixed with --apply` : `${planned} wait for approval`,
    );
  const blocked = open.filter((problem) => problem.state === 'blocked');
  if (blocked.length > 0)
    parts.push(`${blocked.length} blocked (${shorten(blocked[0]?.because ?? 'see the list', 60)})`);
  const rest = open.filter((problem) => problem.state === 'open');
  const cause = rootCause(rest, found);
  const first = cause ?? rest.find((problem) => problem.severity !== 'info') ?? rest[0];
  if (first) {
    const lead = cause ? `${rest.length} open; the cause: ` : `${rest.length} open: `;
    parts.push(`${lead}${shorten(first.message)}${first.fix ? `; fix: ${shorten(first.fix, 120)}` : ''}`);
  }
  return `${parts.join('; ')}.`;
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

/** The report model every reader renders. */
export function summarize(report: Report): RunSummary {
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
    .map((finding): Problem => ({ ...finding, ...stateOf(finding, report, actions, stillListed, cleared) }))
    .sort((a, b) => SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity]);
  const open = found.filter((problem) => problem.state !== 'fixed');
  const done = report.steps.flatMap((step) => step.done).filter((action) => action.outcome === 'done');
  const partial: Omit<RunSummary, 'diagnosis'> = {
    runbook: report.runbook,
    cluster: report.cluster,
    mode: report.mode,
    verdict: report.verdict,
    verdictWord: VERDICT_WORD[report.verdict],
    found,
    done,
    plan: planOf(report),
    open,
    counts: { found: found.length, fixed: found.length - open.length, open: open.length },
    docs: `runbooks/${report.runbook}/README.md`,
  };
  return { ...partial, diagnosis: diagnose(partial) };
}
