import { outcome, statusFor } from '../../../src/engine/outcome.ts';
import type { Evidence, Finding, Step } from '../../../src/engine/types.ts';
import { awaitHostMark } from '../agent-rollover.ts';
import { hostMarkFinding } from '../findings.ts';
import type { HostIdentityParams } from '../params.ts';
import { facts, type HostIdentityFacts, type MissingRule } from '../shared-state.ts';

/**
 * After restarts, each restarted node again: its new agent Ready and the rule in place (polled,
 * bounded). Nodes that were not restarted still lack the rule and are reported again, so the
 * run's verdict (which this last step decides after a write) does not overstate the fix.
 */
export const verifyRule: Step<HostIdentityParams, HostIdentityFacts> = {
  id: 'verify-rule',
  title: 'Host mark rule present after the restarts',
  writes: false,
  async when(ctx) {
    return facts(ctx).restarted.size === 0 ? 'no agent was restarted; nothing to verify' : undefined;
  },
  async run(ctx) {
    const known = facts(ctx);
    const timeoutMs = ctx.params.verifyTimeoutSeconds * 1000;
    const findings: Finding[] = [];
    const evidence: Evidence[] = [];
    let fixed = 0;
    const endsAt = Date.now() + timeoutMs;
    const label = 'restarted agents Ready with the rule';
    let settled = 0;
    ctx.progress(0, known.restarted.size, label, endsAt);
    const rollovers = await Promise.all(
      known.missing.map(async (missing) => {
        const oldUid = known.restarted.get(missing.agent.node);
        if (!oldUid) return { missing, rollover: undefined };
        const rollover = await awaitHostMark(ctx, missing.agent.node, oldUid, timeoutMs);
        ctx.progress(++settled, known.restarted.size, label, endsAt);
        return { missing, rollover };
      }),
    );
    for (const { missing, rollover } of rollovers) {
      const node = missing.agent.node;
      if (!rollover) {
        findings.push(hostMarkFinding(missing, known.installRules, ' (agent not restarted in this run)'));
        continue;
      }
      if (rollover.reading) evidence.push(rollover.reading.evidence);
      if (rollover.error) evidence.push({ source: node, text: rollover.error.message });
      if (rollover.reading?.state === 'present') {
        fixed++;
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
    return outcome(
      statusFor(findings),
      `host mark rule in place on ${fixed} of ${known.restarted.size} restarted nodes`,
      {
        findings,
        evidence,
      },
    );
  },
};
