import { type AgentPod, type Evidence, errorCause } from '../../sdk/index.ts';
import type { AgentJudgement, Flagged } from './judgements.ts';
import { HEALTHY } from './judgements.ts';

/** Flagged agents of each kind whose findings and evidence the report keeps; the rest are counted. */
export const FLAGGED_KEPT = 100;
/** Agents named per cause of failure; the rest are counted. */
export const NAMED_PER_CAUSE = 3;
/** Causes of failure a report tells apart, the most common; the rest are counted under OTHER_CAUSES. */
export const CAUSES_KEPT = 5;
/** Causes counted apart while agents fail, so the most common are among them; later ones go to OTHER_CAUSES. */
const CAUSES_COUNTED = 20;
export const OTHER_CAUSES = 'other causes';

/** An agent that could not be checked, as plain data: its error's message, not the error. */
export interface UncheckedAgent {
  node: string;
  namespace: string;
  name: string;
  message: string;
}

/** How many agents there were, and the first few of them in the agents' order. */
export interface Kept<T> {
  count: number;
  first: T[];
}

/** Agents that failed alike (`forbidden: create pods/exec`): how many, and the first few named. */
export interface FailureGroup extends Kept<UncheckedAgent> {
  cause: string;
}

/**
 * What the report shows of the agents done so far, as plain data a checkpoint carries to the next
 * invocation: the nodes done, and of the agents a bounded few with counts, so 100,000 agents
 * flagged or failing alike keep a few hundred entries, not 100,000.
 */
export interface Tally {
  done: string[];
  /** Agents whose socket-LB hooks are not where ClusterIP needs them. */
  misplaced: Kept<Flagged>;
  /** Agents with only an informational finding. */
  noted: Kept<Flagged>;
  /** The first healthy agent's signals: what "healthy" rests on. */
  sample?: Evidence;
  failed: FailureGroup[];
}

export const emptyTally = (): Tally => ({
  done: [],
  misplaced: { count: 0, first: [] },
  noted: { count: 0, first: [] },
  failed: [],
});

/** A count, and the `limit` entries of lowest index, whatever order they arrive in. */
class Lowest<T> {
  count = 0;
  readonly #kept: { index: number; value: T }[] = [];

  constructor(private readonly limit: number) {}

  add(index: number, value: T): void {
    this.count += 1;
    const kept = this.#kept;
    if (kept.length < this.limit) {
      kept.push({ index, value });
      return;
    }
    let highest = 0;
    for (let i = 1; i < kept.length; i++)
      if ((kept[i]?.index ?? 0) > (kept[highest]?.index ?? 0)) highest = i;
    if (index < (kept[highest]?.index ?? 0)) kept[highest] = { index, value };
  }

  get kept(): Kept<T> {
    return {
      count: this.count,
      first: [...this.#kept].sort((a, b) => a.index - b.index).map((e) => e.value),
    };
  }
}

const isMisplaced = (judged: Flagged) => judged.findings.some((f) => f.severity !== 'info');

/** Earlier invocations' agents first, then this one's, still at most `limit` named. */
function joined<T>(before: Kept<T>, now: Kept<T>, limit: number): Kept<T> {
  return { count: before.count + now.count, first: [...before.first, ...now.first].slice(0, limit) };
}

/** Groups joined by cause: the CAUSES_KEPT most common apart, the rest under OTHER_CAUSES. */
function grouped(groups: readonly FailureGroup[]): FailureGroup[] {
  const byCause = new Map<string, FailureGroup>();
  const join = (group: FailureGroup, cause = group.cause) => {
    const alike = byCause.get(cause);
    byCause.set(cause, alike ? { cause, ...joined(alike, group, NAMED_PER_CAUSE) } : { ...group, cause });
  };
  for (const group of groups) join(group);
  const other = byCause.get(OTHER_CAUSES);
  byCause.delete(OTHER_CAUSES);
  const common = [...byCause.values()].sort((a, b) => b.count - a.count);
  byCause.clear();
  for (const group of common.slice(0, CAUSES_KEPT)) join(group);
  for (const group of [...common.slice(CAUSES_KEPT), ...(other ? [other] : [])]) join(group, OTHER_CAUSES);
  return [...byCause.values()];
}

/**
 * The agents of one invocation's fan-out, tallied as they finish: each agent adds to a count and
 * is kept only while it is among the first few of its kind, so nothing grows with the cluster but
 * the nodes done. A failed agent's error is read at once and dropped (it holds the failed exec's
 * socket and buffers through its stack).
 */
export class AgentTally {
  readonly #misplaced = new Lowest<Flagged>(FLAGGED_KEPT);
  readonly #noted = new Lowest<Flagged>(FLAGGED_KEPT);
  readonly #failed = new Map<string, Lowest<UncheckedAgent>>();

  /** `index` is the agent's place in the agents' order. */
  judged(judgement: AgentJudgement, index: number): void {
    if (judgement === HEALTHY) return;
    (isMisplaced(judgement) ? this.#misplaced : this.#noted).add(index, judgement);
  }

  /** Agents that could not be checked so far. */
  get failures(): number {
    let count = 0;
    for (const group of this.#failed.values()) count += group.count;
    return count;
  }

  failed(agent: AgentPod, error: Error, index: number): void {
    const own = errorCause(error);
    const cause = this.#failed.has(own) || this.#failed.size < CAUSES_COUNTED ? own : OTHER_CAUSES;
    const group = this.#failed.get(cause) ?? new Lowest<UncheckedAgent>(NAMED_PER_CAUSE);
    this.#failed.set(cause, group);
    group.add(index, {
      node: agent.node,
      namespace: agent.namespace,
      name: agent.name,
      message: error.message,
    });
  }

  /** `before` (the earlier invocations') with this invocation's agents after it. */
  after(before: Tally, done: readonly string[], sample: Evidence | undefined): Tally {
    const failed = [...this.#failed].map(([cause, group]) => ({ cause, ...group.kept }));
    return {
      done: [...before.done, ...done],
      misplaced: joined(before.misplaced, this.#misplaced.kept, FLAGGED_KEPT),
      noted: joined(before.noted, this.#noted.kept, FLAGGED_KEPT),
      ...((before.sample ?? sample) ? { sample: before.sample ?? sample } : {}),
      failed: grouped([...before.failed, ...failed]),
    };
  }
}
