import {
  agentsLabel,
  defineStep,
  type Evidence,
  type Finding,
  outcome,
  statusFor,
} from '../../../sdk/index.ts';
import { readHostMark } from '../agent-check.ts';
import { agentFailureOutcome } from '../agent-errors.ts';
import { hostMarkFinding } from '../findings.ts';
import type { HostIdentityParams } from '../params.ts';
import { facts, type HostIdentityFacts } from '../shared-state.ts';

/** Evidence for this many nodes at most: on a large cluster the findings already name every node. */
const EVIDENCE_NODES = 10;

/** Every agent's filter table: does CILIUM_OUTPUT mark host traffic, and does OUTPUT feed it? */
export const hostMarkRule = defineStep<HostIdentityParams, HostIdentityFacts>({
  id: 'host-mark-rule',
  title: 'Each agent marks host traffic (CILIUM_OUTPUT host mark rule)',
  writes: false,
  async run(ctx) {
    const known = facts(ctx);
    if ((await ctx.cilium.agents()).length === 0) {
      return outcome('error', `no Cilium agent pods (k8s-app=cilium) in namespace ${ctx.cilium.namespace}`);
    }
    const results = await ctx.cilium.forEachAgent((agent) => readHostMark(ctx.cilium, agent), {
      concurrency: ctx.limits.concurrency,
      signal: ctx.signal,
      onProgress: (done, total, failed) => ctx.progress(done, total, agentsLabel(done, failed)),
    });
    const findings: Finding[] = [];
    const evidence: Evidence[] = [];
    for (const result of results) {
      if (!result.ok || result.value.state === 'present') continue;
      const missing = { agent: result.agent, state: result.value.state };
      known.missing.push(missing);
      findings.push(hostMarkFinding(missing, known.installRules));
      if (evidence.length < EVIDENCE_NODES) evidence.push(result.value.evidence);
    }
    const failed = results.filter((r) => !r.ok);
    if (failed.length > 0) {
      return agentFailureOutcome(failed, results.length, { findings, evidence });
    }
    const summary =
      findings.length === 0
        ? `host mark rule present on all ${results.length} nodes`
        : `host mark rule missing on ${findings.length} of ${results.length} nodes`;
    return outcome(statusFor(findings), summary, { findings, evidence });
  },
});
