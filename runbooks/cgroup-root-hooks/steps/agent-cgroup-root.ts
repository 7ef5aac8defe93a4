import {
  type AgentPod,
  type AgentResult,
  agentsLabel,
  defineStep,
  type Evidence,
  errorCause,
  type Finding,
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

type Failure = Extract<AgentResult<AgentJudgement>, { ok: false }>;

/** Node names for a one-line summary: a few, then how many more. */
function fewOf(nodes: readonly string[]): string {
  return nodes.length > 3 ? `${nodes.slice(0, 3).join(', ')} and ${nodes.length - 3} more` : nodes.join(', ');
}

function failureEvidence(failures: readonly Failure[]): Evidence[] {
  const byCause = new Map<string, Failure[]>();
  for (const failure of failures) {
    const cause = errorCause(failure.error);
    const alike = byCause.get(cause);
    if (alike) alike.push(failure);
    else byCause.set(cause, [failure]);
  }
  return [...byCause.values()].map((alike) => {
    const nodes = alike.map((failure) => failure.agent.node);
    return { source: `${alike.length} agent(s): ${fewOf(nodes)}`, text: (alike[0] as Failure).error.message };
  });
}

function failureFinding(failure: Failure): Finding {
  const { agent, error } = failure;
  return {
    code: AGENT_CHECK_FAILED,
    target: agent.node,
    severity: 'warning',
    message: `${agent.node}: could not check the agent's cgroup root: ${error.message}`,
    fix: `Check that ${agent.namespace}/${agent.name} is running and that the responder may exec into it (create pods/exec), then run again.`,
  };
}

/** Step 2: per agent, is its cgroup root the host's (inode 1), and do Cilium's socket hooks sit on it? */
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
    const judgements = new Judgements();
    const judge = async (agent: AgentPod, index: number) =>
      judgements.judge(await readAgentFacts(ctx.cilium, agent, root), index);
    const results = await ctx.cilium.forEachAgent(judge, {
      concurrency: ctx.limits.concurrency,
      signal: ctx.signal,
      onProgress: (done, total, failed) => ctx.progress(done, total, agentsLabel(done, failed)),
    });
    if (results.length === 0)
      return outcome('error', `no Cilium agent pods (k8s-app=cilium) in ${ctx.cilium.namespace}`);

    const failures = results.filter((result): result is Failure => !result.ok);
    const checked = results.length - failures.length;
    if (checked === 0) {
      const causes = [...new Set(failures.map((failure) => errorCause(failure.error)))].join('; ');
      return outcome('error', `no agent could be checked (${failures.length} failed): ${causes}`, {
        evidence: failureEvidence(failures),
      });
    }

    const flagged = results.flatMap((result) =>
      result.ok && result.value !== HEALTHY ? [result.value] : [],
    );
    const isMisplaced = (judged: Flagged) => judged.findings.some((f) => f.severity !== 'info');
    const misplaced = flagged.filter(isMisplaced);
    const noted = flagged.filter((judged) => !isMisplaced(judged));
    const findings = [
      ...[...misplaced, ...noted].flatMap((m) => m.findings),
      ...failures.map(failureFinding),
    ];
    // A healthy run still shows one agent's signals, so the report says what "healthy" rests on.
    const shown =
      misplaced.length > 0
        ? misplaced.map((judged) => judged.evidence)
        : noted.length > 0
          ? noted.map((judged) => judged.evidence)
          : judgements.sample
            ? [judgements.sample]
            : [];
    const evidence = [...shown, ...failureEvidence(failures)];
    const unchecked = failures.length > 0 ? `; ${failures.length} could not be checked` : '';
    const summary =
      misplaced.length === 0
        ? `${checked} of ${results.length} agents have the socket-LB hooks on the host's cgroup root (inode 1)${unchecked}`
        : `${misplaced.length} of ${results.length} agents do not have the socket-LB hooks on the host's cgroup root: ${fewOf(misplaced.map((m) => m.node))}${unchecked}`;
    const status = misplaced.length === 0 && failures.length > 0 ? 'warn' : statusFor(findings);
    return outcome(status, summary, { findings, evidence });
  },
});
