import { createServer } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { R } from '../../../sim/cluster.ts';
import type { Fault } from '../../../sim/faults.ts';
import type { PodRef, UnmanagedPodsPlan } from '../../../sim/scenarios/plan.ts';
import type { AgentPod, ClusterAccess, KubeFacade } from '../../../src/cluster/types.ts';
import { actionKey, MAY_HAVE_HAPPENED } from '../../../src/engine/actuator.ts';
import { DEFAULT_LIMITS } from '../../../src/engine/types.ts';
import { type SimUnderTest, startScenario } from '../../helpers/sim-access.ts';
import { accessAt, accessTo } from '../cluster/fixtures.ts';
import { actuatorOn, countingBrake } from './actuator-rig.ts';

let current: SimUnderTest;
let access: ClusterAccess;
let planted: UnmanagedPodsPlan;
beforeEach(async () => {
  current = await startScenario(['unmanaged-pods']);
  // No retries: a throttled write is refused at once, as after the last retry.
  access = accessTo(current.sim, { retries: 0 });
  planted = current.plan.unmanagedPods as UnmanagedPodsPlan;
});
afterEach(() => current.sim.close());

const REASON = 'no CiliumEndpoint';
const first = () => planted.evictable[0] as PodRef;
const second = () => planted.evictable[1] as PodRef;
/** The uid the pod of that name has now, or undefined once it is gone. */
const uidNow = (pod: { namespace: string; name: string }) =>
  current.sim.cluster.store.get(R.pods, pod.namespace, pod.name)?.metadata.uid;

/** Kube whose writes (and eviction previews) go where `writes()` says at each call, reads to the simulator. */
function writesThrough(writes: () => ClusterAccess): KubeFacade {
  const reads = access.kube;
  return {
    clusterName: reads.clusterName,
    get: reads.get.bind(reads),
    list: reads.list.bind(reads),
    pages: reads.pages.bind(reads),
    exec: reads.exec.bind(reads),
    evict: (namespace, name, options) => writes().kube.evict(namespace, name, options),
    deletePod: (namespace, name, uid) => writes().kube.deletePod(namespace, name, uid),
  };
}

async function refusingUrl(): Promise<string> {
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  const port = (closed.address() as { port: number }).port;
  await new Promise<void>((resolve) => closed.close(() => resolve()));
  return `https://127.0.0.1:${port}`;
}

const LOST_ANSWERS: [string, Fault][] = [
  ['504 Timeout', { errorRate: 1, errorCode: 504, afterApply: true }],
  ['500', { errorRate: 1, errorCode: 500, afterApply: true }],
  ['a reset connection', { errorRate: 1, errorCode: 'reset', afterApply: true }],
];

describe('an eviction applied whose answer is lost', () => {
  it.each(LOST_ANSWERS)(
    '(%s) is unconfirmed, keeps its brake ticket and counts against the cap',
    async (_, fault) => {
      const brake = countingBrake();
      const act = actuatorOn(access, { brake, limits: { ...DEFAULT_LIMITS, maxEvictionsPerRun: 1 } });
      current.sim.faults.set('eviction', fault);
      const done = await act.evictPod(first(), REASON);
      expect(done.outcome).toBe('unconfirmed');
      expect(done.detail?.startsWith(`${MAY_HAVE_HAPPENED}: unavailable: create pods/eviction`)).toBe(true);
      expect(uidNow(first())).toBeUndefined();
      expect(brake.held()).toBe(1);
      current.sim.faults.clear();
      expect(await act.evictPod(second(), REASON)).toMatchObject({
        outcome: 'skipped',
        detail: 'over the per-run cap of 1',
      });
      expect(uidNow(second())).toBe(second().uid);
    },
  );
});

describe('an eviction the server proves it did not apply', () => {
  it('a refused connection fails, gives its ticket back and leaves the cap alone', async () => {
    const brake = countingBrake();
    let writes = accessAt(current.sim, await refusingUrl(), { retries: 0 });
    const limits = { ...DEFAULT_LIMITS, maxEvictionsPerRun: 1 };
    const act = actuatorOn(access, { brake, limits, kube: writesThrough(() => writes) });
    const done = await act.evictPod(first(), REASON);
    expect(done.outcome).toBe('failed');
    expect(done.detail).toContain('ECONNREFUSED');
    expect(brake.held()).toBe(0);
    expect(uidNow(first())).toBe(first().uid);
    // The same run, its cap of 1 unused, still evicts another pod once the API answers.
    writes = access;
    expect((await act.evictPod(second(), REASON)).outcome).toBe('done');
    expect(brake.held()).toBe(1);
  });

  it('a throttled (429) eviction fails and gives its ticket back', async () => {
    const brake = countingBrake();
    current.sim.faults.set('eviction', { errorRate: 1, errorCode: 429, retryAfterSeconds: 0 });
    const done = await actuatorOn(access, { brake }).evictPod(first(), REASON);
    expect(done.outcome).toBe('failed');
    expect(done.detail).toMatch(/^throttled: create pods\/eviction/);
    expect(brake.held()).toBe(0);
  });

  it("a PodDisruptionBudget's 429 at the write (the preview allowed it) blocks it and gives the ticket back", async () => {
    const brake = countingBrake();
    const held = planted.blockedByBudget[0] as PodRef;
    const kube = writesThrough(() => access);
    // The budget allowed it a moment ago: the preview says so, the write meets the budget.
    const previewAllows: KubeFacade = {
      ...kube,
      evict: (namespace, name, options) =>
        options.dryRun ? Promise.resolve({ outcome: 'evicted' }) : kube.evict(namespace, name, options),
    };
    const limits = { ...DEFAULT_LIMITS, maxEvictionsPerRun: 1 };
    const act = actuatorOn(access, { brake, limits, kube: previewAllows });
    const done = await act.evictPod(held, REASON);
    expect(done.outcome).toBe('blocked');
    expect(done.detail).toContain('disruption budget');
    expect(brake.held()).toBe(0);
    expect((await act.evictPod(first(), REASON)).outcome).toBe('done');
  });
});

describe('an agent restart applied whose answer is lost', () => {
  it.each(LOST_ANSWERS)(
    '(%s) is unconfirmed, keeps its brake ticket and counts against the cap',
    async (_, fault) => {
      const [agent, other] = (await access.cilium.agents()).filter((a) => a.ready) as [AgentPod, AgentPod];
      const brake = countingBrake();
      const act = actuatorOn(access, {
        brake,
        approved: new Set([actionKey('restart-agent', agent.node), actionKey('restart-agent', other.node)]),
      });
      current.sim.faults.set('delete', fault);
      const done = await act.restartAgent(agent.node, 'fix');
      expect(done.outcome).toBe('unconfirmed');
      expect(done.detail?.startsWith(`${MAY_HAVE_HAPPENED}: unavailable: delete pods`)).toBe(true);
      expect(uidNow(agent)).toBeUndefined();
      expect(brake.held()).toBe(1);
      current.sim.faults.clear();
      // The default cap is one restart a run: the unconfirmed one used it.
      expect(await act.restartAgent(other.node, 'fix')).toMatchObject({
        outcome: 'skipped',
        detail: 'over the per-run cap of 1',
      });
      expect(uidNow(other)).toBe(other.uid);
    },
  );

  it('a refused connection fails, gives its ticket back and leaves the cap alone', async () => {
    const [agent, other] = (await access.cilium.agents()).filter((a) => a.ready) as [AgentPod, AgentPod];
    const brake = countingBrake();
    const approved = new Set([
      actionKey('restart-agent', agent.node),
      actionKey('restart-agent', other.node),
    ]);
    let writes = accessAt(current.sim, await refusingUrl(), { retries: 0 });
    const act = actuatorOn(access, { brake, approved, kube: writesThrough(() => writes) });
    expect((await act.restartAgent(agent.node, 'fix')).outcome).toBe('failed');
    expect(brake.held()).toBe(0);
    expect(uidNow(agent)).toBe(agent.uid);
    writes = access;
    expect((await act.restartAgent(other.node, 'fix')).outcome).toBe('done');
    expect(brake.held()).toBe(1);
  });
});
