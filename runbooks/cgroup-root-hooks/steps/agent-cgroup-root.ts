import {
  type AgentPod,
  agentsLabel,
  defineStep,
  type Evidence,
  type Finding,
  type Outcome,
  outcome,
  statusFor,
} from '../../../sdk/index.ts';
import { readAgentFacts } from '../agent-facts.ts';
import {
  AgentTally,
  emptyTally,
  type FailureGroup,
  type Kept,
  OTHER_CAUSES,
  type Tally,
  type UncheckedAgent,
} from '../agent-tally.ts';
import { type Flagged, Judgements } from '../judgements.ts';
import type { CgroupRootHooksParams } from '../params.ts';
import { type CgroupRootState, socketLbDecision } from './socket-lb.ts';

/** cilium-config `cgroup-root` when unset; the Helm chart's `cgroup.hostRoot`. */
export const DEFAULT_CGROUP_ROOT = '/run/cilium/cgroupv2';

export const AGENT_CHECK_FAILED = 'AGENT_CHECK_FAILED';

/** Node names for a one-line summary: a few of `count`, then how many more. */
function fewOf(nodes: readonly string[], count = nodes.length): string {
  const shown = nodes.slice(0, 3);
  return count > shown.length ? `${shown.join(', ')} and ${count - shown.length} more` : shown.join(', ');
}

/** One line per cause: how many agents, a few named, and what they said (each, when causes differ). */
function failureEvidence(groups: readonly FailureGroup[]): Evidence[] {
  return groups.map((group) => {
    const other = group.cause === OTHER_CAUSES;
    const nodes = fewOf(
      group.first.map((agent) => agent.node),
      group.count,
    );
    const said = other ? group.first : group.first.slice(0, 1);
    return {
      source: `${group.count} agent(s)${other ? ' failing in other ways' : ''}: ${nodes}`,
      text: said.map((agent) => agent.message).join('\n'),
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

/** The findings of the agents kept, and how many more there were. */
const findingsOf = (kept: Kept<Flagged>) => kept.first.flatMap((judged) => judged.findings);
const unlisted = (kept: Kept<Flagged>) =>
  kept.count > kept.first.length ? ` (findings for the first ${kept.first.length})` : '';

/** The step's outcome from what it found; `left`: agents not reached yet (a run that paused). */
function outcomeOf(tally: Tally, left: number, namespace: string): Outcome {
  const { failed, misplaced, noted } = tally;
  const total = tally.done.length + left;
  if (total === 0) return outcome('error', `no Cilium agent pods (k8s-app=cilium) in ${namespace}`);
  const failedCount = failed.reduce((sum, group) => sum + group.count, 0);
  const checked = tally.done.length - failedCount;
  if (checked === 0 && left === 0) {
    const causes = failed.map((group) => group.cause).join('; ');
    return outcome('error', `no agent could be checked (${failedCount} failed): ${causes}`, {
      evidence: failureEvidence(failed),
    });
  }
  const named = failed.flatMap((group) => group.first);
  const findings = [...findingsOf(misplaced), ...findingsOf(noted), ...named.map(failureFinding)];
  // A healthy run still shows one agent's signals, so the report says what "healthy" rests on.
  const shown =
    misplaced.count > 0
      ? misplaced.first.map((judged) => judged.evidence)
      : noted.count > 0
        ? noted.first.map((judged) => judged.evidence)
        : tally.sample
          ? [tally.sample]
          : [];
  const evidence = [...shown, ...failureEvidence(failed)];
  const unchecked = failedCount > 0 ? `; ${failedCount} could not be checked` : '';
  const notReached = left > 0 ? `; ${left} not reached` : '';
  const summary =
    misplaced.count === 0
      ? `${checked} of ${total} agents have the socket-LB hooks on the host's cgroup root (inode 1)${unlisted(noted)}${unchecked}${notReached}`
      : `${misplaced.count} of ${total} agents do not have the socket-LB hooks on the host's cgroup root: ${fewOf(
          misplaced.first.map((judged) => judged.node),
          misplaced.count,
        )}${unlisted(misplaced)}${unchecked}${notReached}`;
  const status = misplaced.count === 0 && (failedCount > 0 || left > 0) ? 'warn' : statusFor(findings);
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
    const before = (ctx.saved as Tally | undefined) ?? emptyTally();
    const done = new Set(before.done);
    const judgements = new Judgements();
    const tally = new AgentTally();
    // The nodes this invocation reaches, for the checkpoint: the only thing kept per agent.
    const now: string[] = [];
    let pending = 0;
    // An agent's failure is tallied here at once, so the fan-out keeps nothing of a checked agent.
    const judge = async (agent: AgentPod, index: number) => {
      now.push(agent.node);
      try {
        tally.judged(judgements.judge(await readAgentFacts(ctx.cilium, agent, root), index), index);
      } catch (error) {
        tally.failed(agent, error instanceof Error ? error : new Error(String(error)), index);
      }
    };
    const unstarted = await ctx.cilium.forEachAgent(judge, {
      concurrency: ctx.limits.concurrency,
      signal: ctx.signal,
      pause: ctx.pausing,
      keep: 'failed',
      skip: (agent) => {
        const skipped = done.has(agent.node);
        if (!skipped) pending += 1;
        return skipped;
      },
      onProgress: (checked, total) =>
        ctx.progress(
          done.size + checked,
          done.size + total,
          agentsLabel(done.size + checked, tally.failures),
        ),
    });
    // Only agents never started fail in the fan-out itself (the run's signal): after the others.
    unstarted.forEach((result, index) => {
      if (!result.ok) tally.failed(result.agent, result.error, pending + index);
      now.push(result.agent.node);
    });
    const left = pending - now.length;
    for (const node of now) done.add(node);
    const found = tally.after(before, now, judgements.sample);
    const result = outcomeOf(found, left, ctx.cilium.namespace);
    return left > 0 ? ctx.pause(found, result) : result;
  },
});
