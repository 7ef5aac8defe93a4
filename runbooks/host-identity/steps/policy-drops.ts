import {
  type AgentPod,
  defineStep,
  type Evidence,
  type Finding,
  type KubeObject,
  type KubeReader,
  outcome,
  RESOURCES,
  statusFor,
} from '../../../sdk/index.ts';
import { agentFailureOutcome } from '../agent-errors.ts';
import { type Drop, worldPolicyDropsTo } from '../drops.ts';
import { POLICY_DENIED_FROM_HOST, POLICY_DENIED_FROM_WORLD } from '../findings.ts';
import type { HostIdentityParams } from '../params.ts';
import { type ProbedPod, podsFailingProbesUnderPolicy } from '../probe-failures.ts';
import { facts, type HostIdentityFacts } from '../shared-state.ts';
import { watchDrops } from '../watch-drops.ts';

function describeDrop(drop: Drop): string {
  const port = (address: Drop['source']) => (address?.port === undefined ? '' : `:${address.port}`);
  const summary = drop.summary ? ` ${drop.summary}` : '';
  return `${drop.source?.ip ?? '?'}${port(drop.source)} -> ${drop.destination?.ip}${port(drop.destination)}${summary}`;
}

function hostFinding(pod: ProbedPod, drops: readonly Drop[], ruleMissing: boolean): Finding {
  const first = drops[0] as Drop;
  const fromNode = first.source?.ip === pod.hostIP ? ' (the node itself)' : ' (a node)';
  const policies = pod.policies.join(', ');
  return {
    code: POLICY_DENIED_FROM_HOST,
    target: `${pod.namespace}/${pod.name}`,
    severity: 'critical',
    message: `probes dropped as world by NetworkPolicy ${policies}: ${drops.length} "${first.reason}" drops, e.g. ${describeDrop(first)}${fromNode}`,
    fix: ruleMissing
      ? `Restore the host mark rule on ${pod.node} (see HOST_MARK_RULE_MISSING); the probes then pass with no policy change`
      : `${pod.node} has the host mark rule, yet probes arrive as world: check the probe source, or allow it in ${policies}`,
  };
}

/** World drops whose sources are no node's address: the policy denies them; host marking is not why. */
function worldFinding(pod: ProbedPod, drops: readonly Drop[]): Finding {
  const first = drops[0] as Drop;
  const policies = pod.policies.join(', ');
  const sources = [...new Set(drops.map((drop) => drop.source?.ip ?? '?'))];
  return {
    code: POLICY_DENIED_FROM_WORLD,
    target: `${pod.namespace}/${pod.name}`,
    severity: 'warning',
    message: `${drops.length} "${first.reason}" drops to ${pod.ip} from ${sources.slice(0, 3).join(', ')}, which is no node's address: NetworkPolicy ${policies} denies that source as world`,
    fix: `Find what sends from ${sources[0]}; if it should reach ${pod.namespace}/${pod.name}, allow it in ${policies}. The host mark rule does not apply to traffic from outside the node.`,
  };
}

/** Every node's addresses: a drop from one of them is host traffic the mark rule should have named. */
async function nodeAddresses(kube: KubeReader): Promise<Set<string>> {
  const lists = await kube.list(RESOURCES.nodes, {
    project: (node: KubeObject) =>
      ((node.status as { addresses?: { address: string }[] } | undefined)?.addresses ?? []).map(
        (entry) => entry.address,
      ),
  });
  return new Set(lists.flat());
}

/**
 * Pods failing probes under a restricting NetworkPolicy, and the world -> pod "Policy denied"
 * drops their agents see: the incident's symptom, tied to its cause. Only agents on nodes with
 * such pods are watched, each for `monitorSeconds`.
 */
export const policyDrops = defineStep<HostIdentityParams, HostIdentityFacts>({
  id: 'policy-drops',
  title: 'Probes to policy-selected pods dropped as world',
  writes: false,
  async run(ctx) {
    const pods = await podsFailingProbesUnderPolicy(ctx.kube);
    if (pods.length === 0) {
      return outcome('pass', 'no pod fails probes under an ingress-restricting NetworkPolicy');
    }
    const nodes = new Set(pods.map((pod) => pod.node));
    const watched = (await ctx.cilium.agents()).filter((agent) => nodes.has(agent.node));
    // The watch is the wait: each watched agent's monitor runs `monitorSeconds`, `concurrency` at once.
    const rounds = Math.max(1, Math.ceil(watched.length / Math.max(1, ctx.limits.concurrency)));
    const endsAt = Date.now() + rounds * ctx.params.monitorSeconds * 1000;
    const label = 'agents watched for drops';
    let finished = 0;
    ctx.progress(0, watched.length, label, endsAt);
    const results = await ctx.cilium.forEachAgent(
      async (agent: AgentPod) => {
        if (!nodes.has(agent.node)) return [];
        try {
          return await watchDrops(ctx.cilium, agent, ctx.params.monitorSeconds);
        } finally {
          ctx.progress(++finished, watched.length, label, endsAt);
        }
      },
      { concurrency: ctx.limits.concurrency, signal: ctx.signal },
    );
    const dropsByNode = new Map(results.flatMap((r) => (r.ok ? [[r.agent.node, r.value] as const] : [])));
    const missingOn = new Set(facts(ctx).missing.map((m) => m.agent.node));
    const nodeIps = await nodeAddresses(ctx.kube);
    const findings: Finding[] = [];
    const evidence: Evidence[] = [];
    for (const pod of pods) {
      const drops = worldPolicyDropsTo(pod.ip, dropsByNode.get(pod.node) ?? []);
      const where = `${pod.namespace}/${pod.name} on ${pod.node}`;
      if (drops.length === 0) {
        evidence.push({
          source: where,
          text: `fails probes, but no world drops to ${pod.ip} in ${ctx.params.monitorSeconds} s`,
        });
        continue;
      }
      const fromNodes = drops.filter((drop) => drop.source && nodeIps.has(drop.source.ip));
      findings.push(
        fromNodes.length > 0
          ? hostFinding(pod, fromNodes, missingOn.has(pod.node))
          : worldFinding(pod, drops),
      );
      if (fromNodes.length > 0 && missingOn.has(pod.node))
        facts(ctx).droppedProbes.push({ namespace: pod.namespace, name: pod.name, node: pod.node });
      evidence.push({
        source: where,
        text: [pod.lastFailure, ...drops.slice(0, 3).map(describeDrop)].join('\n'),
      });
    }
    const failed = results.filter((r) => !r.ok);
    if (failed.length > 0) {
      return agentFailureOutcome(failed, watched.length, { findings, evidence });
    }
    const summary = `${findings.length} of ${pods.length} probe-failing pods dropped as world`;
    return outcome(statusFor(findings), summary, { findings, evidence });
  },
});
