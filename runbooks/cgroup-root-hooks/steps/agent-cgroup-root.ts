import {
  type AgentPod,
  type AgentResult,
  agentsLabel,
  defineStep,
  type Evidence,
  errorCause,
  type Finding,
  type Outcome,
  outcome,
  statusFor,
} from '../../../sdk/index.ts';
import { readAgentFacts } from '../agent-facts.ts';
import { type AgentJudgement, type Flagged, HEALTHY, Judgements } from '../judgements.ts';
import type { CgroupRootHooksParams } from '../params.ts';
import { type CgroupRootState, socketLbDecision } from './socket-lb.ts';

/** cilium-config `cgroup-root` when unset; the Helm chart's `cgroup.hostRoot`. */
export const DEFAULT_CGROUP_ROOT = '/run/cilium/cgroupv2';

export const AGENT_CHECK_FAILED = 'AGENT_CHECK_FAILED';

/** An agent that could not be checked, as plain data: what a checkpoint keeps of its error. */
interface UncheckedAgent {
  node: string;
  namespace: string;
  name: string;
  /** What groups it with others failing the same way (`forbidden: create pods/exec`). */
  cause: string;
  message: string;
}

/**
 * What the step found so far, as plain data, so a run that continues in the next invocation
 * carries it in its checkpoint: the nodes whose agents are done, and only what the report shows
 * of them (the flagged agents, the first healthy agent's signals, the agents that failed).
 */
interface Tally {
  done: string[];
  flagged: Flagged[];
  sample?: Evidence;
  failed: UncheckedAgent[];
}

/** The tally with this invocation's results added, in the agents' order. */
function tallied(before: Tally, results: readonly AgentResult<AgentJudgement>[], sample?: Evidence): Tally {
  const tally: Tally = {
    ...before,
    done: [...before.done],
    flagged: [...before.flagged],
    failed: [...before.failed],
  };
  for (const result of results) {
    tally.done.push(result.agent.node);
    if (!result.ok) {
      const { agent, error } = result;
      tally.failed.push({
        node: agent.node,
        namespace: agent.namespace,
        name: agent.name,
        cause: errorCause(error),
        message: error.message,
      });
    } else if (result.value !== HEALTHY) tally.flagged.push(result.value);
  }
  tally.sample ??= sample;
  return tally;
}

/** Node names for a one-line summary: a few, then how many more. */
function fewOf(nodes: readonly string[]): string {
  return nodes.length > 3 ? `${nodes.slice(0, 3).join(', ')} and ${nodes.length - 3} more` : nodes.join(', ');
}

function failureEvidence(failures: readonly UncheckedAgent[]): Evidence[] {
  const byCause = new Map<string, UncheckedAgent[]>();
  for (const failure of failures) {
    const alike = byCause.get(failure.cause);
    if (alike) alike.push(failure);
    else byCause.set(failure.cause, [failure]);
  }
  return [...byCause.values()].map((alike) => {
    const nodes = alike.map((failure) => failure.node);
    return {
      source: `${alike.length} agent(s): ${fewOf(nodes)}`,
      text: (alike[0] as UncheckedAgent).message,
    };
  });
}

function failureFinding(agent: UncheckedAgent): Finding {
  return {
    code: AGENT_CHECK_FAILED,
    target: agent.node,
    severity: 'warning',
    message: `${agent.node}: could not check the agent's cgroup root: ${agent.message}`,
    fix: `Check that ${agent.namespace}/${agent.name} is running and that the responder may exec into it (create pods/exec), then run again.`,
  };
}

/** The step's outcome from what it found; `left`: agents not reached yet (a run that paused). */
function outcomeOf(tally: Tally, left: number, namespace: string): Outcome {
  const { failed } = tally;
  const total = tally.done.length + left;
  if (total === 0) return outcome('error', `no Cilium agent pods (k8s-app=cilium) in ${namespace}`);
  const checked = tally.done.length - failed.length;
  if (checked === 0 && left === 0) {
    const causes = [...new Set(failed.map((failure) => failure.cause))].join('; ');
    return outcome('error', `no agent could be checked (${failed.length} failed): ${causes}`, {
      evidence: failureEvidence(failed),
    });
  }
  const isMisplaced = (judged: Flagged) => judged.findings.some((f) => f.severity !== 'info');
  const misplaced = tally.flagged.filter(isMisplaced);
  const noted = tally.flagged.filter((judged) => !isMisplaced(judged));
  const findings = [...[...misplaced, ...noted].flatMap((m) => m.findings), ...failed.map(failureFinding)];
  // A healthy run still shows one agent's signals, so the report says what "healthy" rests on.
  const shown =
    misplaced.length > 0
      ? misplaced.map((judged) => judged.evidence)
      : noted.length > 0
        ? noted.map((judged) => judged.evidence)
        : tally.sample
          ? [tally.sample]
          : [];
  const evidence = [...shown, ...failureEvidence(failed)];
  const unchecked = failed.length > 0 ? `; ${failed.length} could not be checked` : '';
  const notReached = left > 0 ? `; ${left} not reached` : '';
  const summary =
    misplaced.length === 0
      ? `${checked} of ${total} agents have the socket-LB hooks on the host's cgroup root (inode 1)${unchecked}${notReached}`
      : `${misplaced.length} of ${total} agents do not have the socket-LB hooks on the host's cgroup root: ${fewOf(misplaced.map((m) => m.node))}${unchecked}${notReached}`;
  const status = misplaced.length === 0 && (failed.length > 0 || left > 0) ? 'warn' : statusFor(findings);
  return outcome(status, summary, { findings, evidence });
}

/**
 * Step 2: per agent, is its cgroup root the host's (inode 1), and do Cilium's socket hooks sit on
 * it? When the invocation is ending it starts no more agents and pauses with what it found; the
 * next invocation checks only the agents left.
 */
export const agentCgroupRootStep = defineStep<CgroupRootHooksParams, CgroupRootState>({
  id: 'agent-cgroup-root',
  title: "Socket-LB hooks on each agent's host cgroup root",
  writes: false,
  // The hooks are only in use with socket LB on.
  async when(ctx) {
    const socketLb = socketLbDecision(ctx.state);
    return socketLb.enabled ? undefined : `skipped: socket LB is off (${socketLb.because})`;
  },
  async run(ctx) {
    const root = (await ctx.cilium.config())['cgroup-root'] || DEFAULT_CGROUP_ROOT;
    const before = (ctx.saved as Tally | undefined) ?? { done: [], flagged: [], failed: [] };
    const done = new Set(before.done);
    const judgements = new Judgements();
    const judge = async (agent: AgentPod, index: number) =>
      judgements.judge(await readAgentFacts(ctx.cilium, agent, root), index);
    const results = await ctx.cilium.forEachAgent(judge, {
      concurrency: ctx.limits.concurrency,
      signal: ctx.signal,
      pause: ctx.pausing,
      skip: (agent) => done.has(agent.node),
      onProgress: (checked, total, failed) =>
        ctx.progress(done.size + checked, done.size + total, agentsLabel(done.size + checked, failed)),
    });
    const tally = tallied(before, results, judgements.sample);
    for (const result of results) done.add(result.agent.node);
    const left = (await ctx.cilium.agents()).filter((agent) => !done.has(agent.node)).length;
    const result = outcomeOf(tally, left, ctx.cilium.namespace);
    return left > 0 ? ctx.pause(tally, result) : result;
  },
});
