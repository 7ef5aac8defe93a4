import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { R } from '../../../sim/cluster.ts';
import type { PodRef, UnmanagedPodsPlan } from '../../../sim/scenarios/plan.ts';
import { RESPONDER_RULES } from '../../../src/cluster/permissions.ts';
import { type AgentPod, type ClusterAccess, RESOURCES } from '../../../src/cluster/types.ts';
import { type ActuatorOptions, actionKey } from '../../../src/engine/actuator.ts';
import { type Brake, DEFAULT_LIMITS } from '../../../src/engine/types.ts';
import { type SimUnderTest, simAccess, startScenario } from '../../helpers/sim-access.ts';
import { actuatorOn, countingBrake } from './actuator-rig.ts';

let current: SimUnderTest;
let access: ClusterAccess;
let agents: AgentPod[];

beforeEach(async () => {
  current = await startScenario(['unmanaged-pods']);
  access = current.access;
  agents = (await access.cilium.agents()).filter((agent) => agent.ready);
});
afterEach(() => current.sim.close());

const actuator = (options: Partial<ActuatorOptions>) => actuatorOn(access, options);

const agentUid = async (agent: AgentPod) =>
  (await access.kube.get(RESOURCES.pods, agent.namespace, agent.name)).metadata.uid;

describe('agent restarts', () => {
  it('a run that loses its lease while the brake is asked restarts nothing, and gives the ticket back', async () => {
    const [agent] = agents as [AgentPod];
    let lost: string | undefined;
    const counting = countingBrake();
    const brake: Brake = {
      tryWrite: async (cluster) => {
        lost = 'the run lost its lease at 2026-11-24T04:00:00.000Z';
        return counting.tryWrite(cluster);
      },
      refund: counting.refund,
    };
    const done = await actuator({
      brake,
      fence: () => lost,
      approved: new Set([actionKey('restart-agent', agent.node)]),
    }).restartAgent(agent.node, 'fix');
    expect(done).toMatchObject({ outcome: 'skipped', detail: lost });
    expect(await agentUid(agent)).toBe(agent.uid);
    expect(counting.held()).toBe(0);
  });

  it('a restart the API refuses fails with its reason, and gives the ticket back', async () => {
    const [agent] = agents as [AgentPod];
    const rules = RESPONDER_RULES.map((rule) =>
      rule.resources.includes('pods')
        ? { ...rule, verbs: rule.verbs.filter((verb) => verb !== 'delete') }
        : rule,
    );
    const limited = simAccess(current.sim, current.sim.issueToken('no-delete', rules).token);
    const brake = countingBrake();
    const done = await actuator({
      kube: limited.kube,
      cilium: limited.cilium,
      brake,
      approved: new Set([actionKey('restart-agent', agent.node)]),
    }).restartAgent(agent.node, 'fix');
    expect(done.outcome).toBe('failed');
    expect(done.detail).toMatch(/^forbidden: delete pods/);
    expect(await agentUid(agent)).toBe(agent.uid);
    expect(brake.held()).toBe(0);
  });

  it('counts planned restarts against the cap only when nothing was approved', async () => {
    const [a, b] = agents as [AgentPod, AgentPod];
    const planning = actuator({ mode: 'approve', limits: { ...DEFAULT_LIMITS, maxAgentRestartsPerRun: 1 } });
    expect((await planning.restartAgent(a.node, 'fix')).outcome).toBe('planned');
    expect(await planning.restartAgent(b.node, 'fix')).toMatchObject({
      outcome: 'skipped',
      detail: 'over the per-run cap of 1',
    });

    const resumed = actuator({
      mode: 'approve',
      limits: { ...DEFAULT_LIMITS, maxAgentRestartsPerRun: 1 },
      approved: new Set([actionKey('restart-agent', b.node)]),
    });
    expect((await resumed.restartAgent(a.node, 'fix')).outcome).toBe('planned');
    expect((await resumed.restartAgent(b.node, 'fix')).outcome).toBe('done');
    expect(await agentUid(a)).toBe(a.uid);
  });
});

describe('a pod on a node with no agent pod at all', () => {
  it('is left alone: the agent is missing', async () => {
    const planted = current.plan.unmanagedPods as UnmanagedPodsPlan;
    const pod = planted.evictable[0] as PodRef;
    const agent = (await access.cilium.agents()).find((a) => a.node === pod.node) as AgentPod;
    // The agent pod is gone and nothing has brought it back yet.
    await current.sim.close();
    current = await startScenario(['unmanaged-pods'], { sim: { controllers: false } });
    access = current.access;
    current.sim.cluster.store.delete(R.pods, agent.namespace, agent.name);
    const samePod = (current.plan.unmanagedPods as UnmanagedPodsPlan).evictable.find(
      (p) => p.name === pod.name,
    ) as PodRef;

    const done = await actuator({}).evictPod(samePod, 'no CiliumEndpoint');

    expect(done).toMatchObject({
      outcome: 'skipped',
      detail: `the Cilium agent on ${samePod.node} is not ready (missing)`,
    });
  });
});
