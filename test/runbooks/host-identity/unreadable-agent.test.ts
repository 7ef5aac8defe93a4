import { afterEach, describe, expect, it } from 'vitest';
import { R } from '../../../sim/cluster.ts';
import type { Pod } from '../../../sim/objects.ts';
import { type SimUnderTest, startScenario } from '../../helpers/sim-access.ts';
import { run, step, targets } from './run-helpers.ts';

let current: SimUnderTest | undefined;
afterEach(async () => {
  await current?.sim.close();
  current = undefined;
});

describe('host-identity when one agent’s iptables cannot be read', () => {
  it('reports that agent as not checked, and keeps what the other agents showed', async () => {
    current = await startScenario(['host-identity-world']);
    const { sim, access, plan } = current;
    const agents = await access.cilium.agents();
    expect(agents.length).toBeGreaterThan(2);
    const [broken] = agents;
    if (!broken) throw new Error('no agents');
    // Its container is not running (the agent is still starting), so nothing can be exec'd in it.
    sim.cluster.store.update<Pod>(R.pods, broken.namespace, broken.name, (pod) => ({
      ...pod,
      status: { ...pod.status, phase: 'Pending' },
    }));

    const report = await run(access);

    const check = step(report, 'host-mark-rule');
    expect(check.status).toBe('error');
    expect(check.summary).toMatch(
      new RegExp(`^could not check 1 of ${agents.length} agents: .*\\(${broken.node}\\)$`),
    );
    expect(check.evidence.map((e) => e.source)).toContain(`${broken.node}: ${broken.name}`);
    // The rule is missing on every node of this incident: the readable agents still say so.
    expect(targets(report, 'HOST_MARK_RULE_MISSING', 'host-mark-rule')).toEqual(
      plan.nodes.filter((node) => node !== broken.node).sort(),
    );
    expect(report.verdict).toBe('failed');
  });
});
