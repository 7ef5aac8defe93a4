import {
  type Cleared,
  checkDeletion,
  checksSummary,
  type DeletionCheck,
  defineStep,
  type Evidence,
  type Finding,
  outcome,
  type StepContext,
  statusFor,
} from '../../../sdk/index.ts';
import { awaitHostMark } from '../agent-rollover.ts';
import { hostMarkFinding, POLICY_DENIED_FROM_HOST } from '../findings.ts';
import type { HostIdentityParams } from '../params.ts';
import { awaitProbesPassing } from '../probes-recovered.ts';
import { facts, type HostIdentityFacts, type MissingRule } from '../shared-state.ts';

/**
 * Whether each agent restart whose answer was lost happened (the agent pod with that uid gone or
 * terminating), asked of the cluster: by node.
 */
async function checkUnconfirmed(
  ctx: StepContext<HostIdentityParams, HostIdentityFacts>,
): Promise<Map<string, DeletionCheck>> {
  const known = facts(ctx);
  const lost = known.missing.filter(({ agent }) => known.unconfirmed.has(agent.node));
  return new Map(
    await Promise.all(
      lost.map(async ({ agent }) => [agent.node, await checkDeletion(ctx.kube, agent)] as const),
    ),
  );
}

/**
 * After restarts (those whose answer was lost first checked on the cluster), each restarted node again: its new agent Ready and the rule in place (polled,
 * bounded). Nodes that were not restarted still lack the rule and are reported again, so the
 * run's verdict (which this last step decides after a write) does not overstate the fix. On the
 * nodes that have the rule back, the pods whose probes were dropped are watched until Ready
 * again, within the same wait: those are cleared, the rest stay open.
 */
export const verifyRule = defineStep<HostIdentityParams, HostIdentityFacts>({
  id: 'verify-rule',
  title: 'Host mark rule present after the restarts',
  writes: false,
  async when(ctx) {
    const known = facts(ctx);
    return known.restarted.size + known.unconfirmed.size === 0
      ? 'no agent was restarted; nothing to verify'
      : undefined;
  },
  async run(ctx) {
    const known = facts(ctx);
    const timeoutMs = ctx.params.verifyTimeoutSeconds * 1000;
    const findings: Finding[] = [];
    const lost = await checkUnconfirmed(ctx);
    const evidence: Evidence[] = [...lost].map(([node, check]) => ({
      source: `unconfirmed restart-agent ${node} (agent pod uid ${known.unconfirmed.get(node)})`,
      text: check.seen,
    }));
    const restarted = new Map(known.restarted);
    for (const [node, check] of lost)
      if (check.happened === true) restarted.set(node, known.unconfirmed.get(node) as string);
    const endsAt = Date.now() + timeoutMs;
    const label = 'restarted agents Ready with the rule';
    let settled = 0;
    ctx.progress(0, restarted.size, label, endsAt);
    const rollovers = await Promise.all(
      known.missing.map(async (missing) => {
        const oldUid = restarted.get(missing.agent.node);
        if (!oldUid) return { missing, rollover: undefined };
        const rollover = await awaitHostMark(ctx, missing.agent.node, oldUid, timeoutMs);
        ctx.progress(++settled, restarted.size, label, endsAt);
        return { missing, rollover };
      }),
    );
    const ruleBack = new Set<string>();
    for (const { missing, rollover } of rollovers) {
      const node = missing.agent.node;
      if (!rollover) {
        const check = lost.get(node);
        const note = check
          ? ` (its restart's answer was lost, and ${check.seen})`
          : ' (agent not restarted in this run)';
        findings.push(hostMarkFinding(missing, known.installRules, note));
        continue;
      }
      if (rollover.reading) evidence.push(rollover.reading.evidence);
      if (rollover.error) evidence.push({ source: node, text: rollover.error.message });
      if (rollover.reading?.state === 'present') {
        ruleBack.add(node);
        continue;
      }
      const now: MissingRule = {
        agent: rollover.agent ?? missing.agent,
        state: rollover.reading?.state ?? missing.state,
      };
      const note = rollover.agent
        ? ' (still, after the agent restart)'
        : ` (no Ready replacement agent within ${ctx.params.verifyTimeoutSeconds} s)`;
      findings.push(hostMarkFinding(now, known.installRules, note));
    }
    const recoverable = known.droppedProbes.filter((pod) => ruleBack.has(pod.node));
    const passing = new Set(
      (await awaitProbesPassing(ctx, recoverable, endsAt - Date.now())).map((pod) => podName(pod)),
    );
    const cleared: Cleared[] = [];
    for (const pod of recoverable) {
      const target = podName(pod);
      if (passing.has(target)) {
        const how = `Ready again: its probes pass now that ${pod.node} marks host traffic`;
        cleared.push({ code: POLICY_DENIED_FROM_HOST, target, how });
        evidence.push({ source: target, text: how });
      } else {
        evidence.push({
          source: target,
          text: `not Ready yet with the rule back on ${pod.node}; a container in restart back-off may take minutes: run again to check`,
        });
      }
    }
    const probes =
      recoverable.length > 0
        ? `; ${cleared.length} of ${recoverable.length} pods pass their probes again`
        : '';
    return outcome(
      statusFor(findings),
      `${checksSummary([...lost.values()], 'restart')}host mark rule in place on ${ruleBack.size} of ${restarted.size} restarted nodes${probes}`,
      { findings, evidence, cleared },
    );
  },
});

const podName = (pod: { namespace: string; name: string }) => `${pod.namespace}/${pod.name}`;
