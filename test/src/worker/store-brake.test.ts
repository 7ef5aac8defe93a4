import { createServer } from 'node:net';
import { PassThrough } from 'node:stream';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { RUNBOOKS } from '../../../runbooks/index.ts';
import { R } from '../../../sim/cluster.ts';
import type { Fault } from '../../../sim/faults.ts';
import type { PodRef, UnmanagedPodsPlan } from '../../../sim/scenarios/plan.ts';
import { createApp } from '../../../src/app/app.ts';
import { createWorker } from '../../../src/app/worker.ts';
import { consoleSink } from '../../../src/chat/console.ts';
import type { AgentPod, ClusterAccess, KubeFacade } from '../../../src/cluster/types.ts';
import { actionKey, createActuator } from '../../../src/engine/actuator.ts';
import { SILENT } from '../../../src/engine/run.ts';
import { DEFAULT_LIMITS } from '../../../src/engine/types.ts';
import type { Job } from '../../../src/queue/job.ts';
import { dynamoStore, memoryStore, type StateStore } from '../../../src/store/index.ts';
import { parseAlertmanager } from '../../../src/triggers/index.ts';
import { storeBrake } from '../../../src/worker/run-job.ts';
import { recordingQueue, testConfig, unmanagedAlert } from '../../functions/harness.ts';
import { type SimUnderTest, startScenario } from '../../helpers/sim-access.ts';
import { testPorts } from '../app/test-ports.ts';
import { accessAt, accessTo } from '../cluster/fixtures.ts';
import { type LocalDynamoDB, startLocalDynamoDB } from '../store/local-dynamodb.ts';

const CLUSTER = 'prod-eu';
let local: LocalDynamoDB;
beforeAll(async () => {
  local = await startLocalDynamoDB();
});
afterAll(() => local.stop());

let current: SimUnderTest;
let access: ClusterAccess;
beforeEach(async () => {
  current = await startScenario(['unmanaged-pods']);
  access = { ...accessTo(current.sim, { retries: 0 }), name: CLUSTER };
});
afterEach(() => current.sim.close());

const STORES: [string, () => Promise<StateStore>][] = [
  ['memory', async () => memoryStore()],
  [
    'DynamoDB (dynalite)',
    async () => dynamoStore({ client: local.client, table: await local.createTable() }),
  ],
];

const LOST_ANSWERS: [string, Fault][] = [
  ['504', { errorRate: 1, errorCode: 504, afterApply: true }],
  ['500', { errorRate: 1, errorCode: 500, afterApply: true }],
  ['reset', { errorRate: 1, errorCode: 'reset', afterApply: true }],
];

const uidNow = (pod: { namespace: string; name: string }) =>
  current.sim.cluster.store.get(R.pods, pod.namespace, pod.name)?.metadata.uid;

async function refusingAccess(): Promise<ClusterAccess> {
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  const port = (closed.address() as { port: number }).port;
  await new Promise<void>((resolve) => closed.close(() => resolve()));
  return accessAt(current.sim, `https://127.0.0.1:${port}`, { retries: 0 });
}

/** Reads from the simulator; writes wherever `writes()` points at each call. */
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

describe.each(STORES)('the shared brake in %s counts every write that may have happened', (_, open) => {
  async function rig() {
    const store = await open();
    const brake = storeBrake({ config: testConfig({ maxWrites: 5 }), store, now: () => new Date() });
    let writes = access;
    const [agent, other] = (await access.cilium.agents()).filter((a) => a.ready) as [AgentPod, AgentPod];
    const actuator = createActuator({
      cluster: CLUSTER,
      kube: writesThrough(() => writes),
      cilium: access.cilium,
      mode: 'auto',
      limits: { ...DEFAULT_LIMITS, maxAgentRestartsPerRun: 2 },
      brake,
      log: SILENT,
      approved: new Set([actionKey('restart-agent', agent.node), actionKey('restart-agent', other.node)]),
    });
    return {
      actuator,
      agent,
      other,
      used: async () => (await store.brake.state(CLUSTER, 5, 15 * 60, new Date())).used,
      refuseWrites: async () => {
        writes = await refusingAccess();
      },
    };
  }
  const pods = () => (current.plan.unmanagedPods as UnmanagedPodsPlan).evictable as [PodRef, PodRef];

  it.each(LOST_ANSWERS)(
    'an eviction applied then answered %s keeps its ticket; a refused one does not',
    async (_, fault) => {
      const { actuator, used, refuseWrites } = await rig();
      const [lost, refused] = pods();
      current.sim.faults.set('eviction', fault);
      expect(await actuator.evictPod(lost, 'no CiliumEndpoint')).toMatchObject({ outcome: 'unconfirmed' });
      expect(uidNow(lost)).toBeUndefined();
      expect(await used()).toBe(1);
      current.sim.faults.clear();
      await refuseWrites();
      expect(await actuator.evictPod(refused, 'no CiliumEndpoint')).toMatchObject({ outcome: 'failed' });
      expect(uidNow(refused)).toBe(refused.uid);
      expect(await used()).toBe(1);
    },
  );

  it.each(LOST_ANSWERS)(
    'an agent restart applied then answered %s keeps its ticket; a refused one does not',
    async (_, fault) => {
      const { actuator, agent, other, used, refuseWrites } = await rig();
      current.sim.faults.set('delete', fault);
      expect(await actuator.restartAgent(agent.node, 'fix')).toMatchObject({ outcome: 'unconfirmed' });
      expect(uidNow(agent)).toBeUndefined();
      expect(await used()).toBe(1);
      current.sim.faults.clear();
      await refuseWrites();
      expect(await actuator.restartAgent(other.node, 'fix')).toMatchObject({ outcome: 'failed' });
      expect(uidNow(other)).toBe(other.uid);
      expect(await used()).toBe(1);
    },
  );

  it('two auto runs with maxWrites 2, against an API that applies each eviction then answers 504, evict 2 pods in all', async () => {
    const store = await open();
    const queue = recordingQueue();
    const out = new PassThrough();
    let said = '';
    out.on('data', (chunk: Buffer) => {
      said += chunk.toString();
    });
    const ports = testPorts({ store, queue, chat: consoleSink(out), config: testConfig({ maxWrites: 2 }) });
    const worker = createWorker(ports, { runbooks: RUNBOOKS, connect: async () => access });
    await createApp(ports).dispatch(parseAlertmanager(unmanagedAlert(), { receivedAt: new Date() }));
    const [job] = queue.sent as [Job];
    const again: Job = { ...job, id: `${job.id}-again`, dedupeKey: `${job.dedupeKey}-again` };
    const evictable = (current.plan.unmanagedPods as UnmanagedPodsPlan).evictable;
    expect(evictable.length).toBeGreaterThan(2);
    current.sim.faults.set('eviction', { errorRate: 1, errorCode: 504, afterApply: true });

    await worker.run(job);
    await worker.run(again);

    const evicted = evictable.filter((pod) => uidNow(pod) !== pod.uid);
    expect(evicted).toHaveLength(2);
    expect(await store.brake.state(CLUSTER, 2, 15 * 60, new Date())).toMatchObject({
      used: 2,
      engaged: true,
    });
    const first = await store.runs.get(job.id);
    const unconfirmed =
      first?.actions.filter((line) => line.includes(': unconfirmed (may have happened')) ?? [];
    expect(unconfirmed).toHaveLength(2);
    expect(unconfirmed[0]).toContain('Timeout: request did not complete within requested timeout');
    expect(first?.verdict).toBe('degraded');
    const second = await store.runs.get(again.id);
    // The second run wrote nothing: what the budget allowed, the brake held back.
    expect(second?.actions.some((line) => /: (unconfirmed|done)/.test(line))).toBe(false);
    expect(second?.actions.some((line) => line.includes('blocked (brake engaged'))).toBe(true);
    // The report: the writes that may have happened, and what the verify step found of them.
    const report = first?.report;
    const verify = report?.steps.find((step) => step.id === 'verify-replacements');
    expect(verify?.summary).toMatch(/^2 unconfirmed evictions: 2 happened, 0 did not; /);
    expect(said).toContain('unconfirmed, may have happened:');
    expect(first?.summary?.diagnosis).toContain('2 pod evictions may have happened (the answer was lost)');
  }, 90_000);
});
