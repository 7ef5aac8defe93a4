import { afterEach, describe, expect, it } from 'vitest';
import { actionKey } from '../../../src/engine/actuator.ts';
import { summarize } from '../../../src/report/summary.ts';
import { type SimUnderTest, startScenario } from '../../helpers/sim-access.ts';
import { agentUids, enableIptablesRules, run, step, targets } from './run-helpers.ts';

let current: SimUnderTest | undefined;
afterEach(async () => {
  await current?.sim.close();
  current = undefined;
});

/** host-identity in auto, every agent's restart approved, with the pod deletes answered by `fault`. */
async function restartAllWith(afterApply: boolean) {
  current = await startScenario(['host-identity-world']);
  const { sim, access } = current;
  await enableIptablesRules(sim);
  const before = await agentUids(sim);
  const nodes = [...before.keys()].sort();
  sim.faults.set('delete', { errorRate: 1, errorCode: 504, afterApply });
  const report = await run(access, {
    mode: 'auto',
    limits: { maxAgentRestartsPerRun: nodes.length },
    approved: nodes.map((node) => actionKey('restart-agent', node)),
  });
  sim.faults.clear();
  return { report, before, nodes, after: await agentUids(sim) };
}

describe('host-identity agent restarts whose answer was lost', () => {
  it('applied: verify-rule finds each old agent pod gone, checks the rule, and only then calls it remediated', async () => {
    const { report, before, nodes, after } = await restartAllWith(true);
    const restart = step(report, 'restart-agents');
    expect(restart.done.map((d) => d.outcome)).toEqual(nodes.map(() => 'unconfirmed'));
    expect(restart.status).toBe('warn');
    expect(nodes.every((node) => after.get(node) !== before.get(node))).toBe(true);
    const verify = step(report, 'verify-rule');
    expect(verify.summary).toMatch(
      /^4 unconfirmed restarts: 4 happened, 0 did not; host mark rule in place on 4 of 4 restarted nodes/,
    );
    expect(verify.evidence.filter((e) => e.source.startsWith('unconfirmed restart-agent'))).toHaveLength(4);
    expect(report.verdict).toBe('remediated');
    const summary = summarize(report);
    expect(summary.unconfirmed).toHaveLength(4);
    expect(summary.diagnosis).toContain('4 agent restarts may have happened (the answer was lost)');
  });

  it('not applied (a 504 before the write): verify-rule says it did not happen, and the run stays degraded', async () => {
    const { report, before, nodes, after } = await restartAllWith(false);
    expect(step(report, 'restart-agents').done.map((d) => d.outcome)).toEqual(nodes.map(() => 'unconfirmed'));
    expect(after).toEqual(before);
    const verify = step(report, 'verify-rule');
    expect(verify.summary).toMatch(/^4 unconfirmed restarts: 0 happened, 4 did not; /);
    expect(targets(report, 'HOST_MARK_RULE_MISSING', 'verify-rule')).toEqual(nodes);
    expect(verify.findings[0]?.message).toContain(
      "its restart's answer was lost, and the same pod (same uid) is still running: it did not happen",
    );
    expect(report.verdict).toBe('degraded');
  });
});
