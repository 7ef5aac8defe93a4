import { type DoneAction, defineStep, outcome, type PlannedAction } from '../../../sdk/index.ts';
import type { HostIdentityParams } from '../params.ts';
import { facts, type HostIdentityFacts } from '../shared-state.ts';

const ACTION = 'restart-agent';
const REASON =
  'install-iptables-rules is true but this agent runs without the host mark rule; a restarted agent installs it';

function summaryOf(done: readonly DoneAction[]): { status: 'pass' | 'warn' | 'fail'; summary: string } {
  const count = (outcome: DoneAction['outcome']) => done.filter((d) => d.outcome === outcome).length;
  const counts: [number, string][] = [
    [count('done'), 'restarted'],
    [count('planned'), 'planned (need approval)'],
    [count('skipped') + count('blocked'), 'left alone'],
    [count('failed'), 'failed'],
    [count('unconfirmed'), 'unconfirmed (may have happened; verify-rule checks)'],
  ];
  const parts = counts.filter(([n]) => n !== 0).map(([n, what]) => `${n} ${what}`);
  const status = count('failed') > 0 ? 'fail' : count('done') === done.length ? 'pass' : 'warn';
  return { status, summary: `agent restarts: ${parts.join(', ')}` };
}

/**
 * Restarts the agents that lack the rule, but only when cilium-config already says to install
 * it (someone fixed the config and never restarted the agents). With the config still "false" a
 * restart changes nothing, so nothing is planned. Restarts go through the actuator, which acts
 * only on approved plans and within the per-run cap.
 */
export const restartAgents = defineStep<HostIdentityParams, HostIdentityFacts>({
  id: 'restart-agents',
  title: 'Restart agents so they install the host mark rule',
  writes: true,
  async when(ctx) {
    const known = facts(ctx);
    if (known.missing.length === 0) return 'every agent has the host mark rule';
    if (!known.installRules)
      return 'no restart planned: install-iptables-rules is "false", so a restarted agent would still not install the rule; set it to "true" first';
    return undefined;
  },
  async run(ctx) {
    const known = facts(ctx);
    const plan: PlannedAction[] = [];
    const done: DoneAction[] = [];
    for (const { agent } of known.missing) {
      const result = await ctx.actuator.restartAgent(agent.node, REASON);
      done.push(result);
      if (result.outcome === 'planned' || result.outcome === 'done') {
        plan.push({ action: ACTION, target: agent.node, reason: REASON, uid: agent.uid });
      }
      if (result.outcome === 'done') known.restarted.set(agent.node, agent.uid);
      if (result.outcome === 'unconfirmed') known.unconfirmed.set(agent.node, agent.uid);
    }
    const { status, summary } = summaryOf(done);
    return outcome(status, summary, { plan, done });
  },
});
