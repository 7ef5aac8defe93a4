import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RUNBOOKS } from '../../../runbooks/index.ts';
import { createApp } from '../../../src/app/app.ts';
import { createWorker } from '../../../src/app/worker.ts';
import { consoleSink } from '../../../src/chat/console.ts';
import { type ClusterAccess, type KubeFacade, RESOURCES } from '../../../src/cluster/types.ts';
import type { Job } from '../../../src/queue/job.ts';
import { memoryStore } from '../../../src/store/index.ts';
import type { StateStore } from '../../../src/store/types.ts';
import { parseAlertmanager } from '../../../src/triggers/index.ts';
import { collector, recordingQueue, testClock, testConfig, unmanagedAlert } from '../../functions/harness.ts';
import { type SimUnderTest, startScenario } from '../../helpers/sim-access.ts';
import { testPorts } from './test-ports.ts';

/** The store, noting each lease the worker asks for, so the test can take the same one. */
function observedStore(): { store: StateStore; leaseKeys: string[] } {
  const store = memoryStore();
  const leaseKeys: string[] = [];
  const acquire = store.leases.acquire.bind(store.leases);
  store.leases.acquire = (key, owner, seconds, now) => {
    leaseKeys.push(key);
    return acquire(key, owner, seconds, now);
  };
  return { store, leaseKeys };
}

/** The cluster as the worker reaches it, calling `afterFirstEviction` once the first real eviction is made. */
function withHook(access: ClusterAccess, afterFirstEviction: () => Promise<void>): ClusterAccess {
  let evictions = 0;
  const kube = new Proxy(access.kube, {
    get(target, property) {
      const value = Reflect.get(target, property, target);
      if (property !== 'evict') return typeof value === 'function' ? value.bind(target) : value;
      const evict: KubeFacade['evict'] = async (namespace, name, options) => {
        const result = await target.evict(namespace, name, options);
        if (!options.dryRun && result.outcome === 'evicted' && ++evictions === 1) await afterFirstEviction();
        return result;
      };
      return evict;
    },
  });
  return { ...access, kube };
}

describe('a run whose lease another worker takes mid-run', () => {
  let scenario: SimUnderTest;
  beforeEach(async () => {
    // Only the lease heartbeat's timer is faked: the test decides when it fires.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    scenario = await startScenario(['unmanaged-pods']);
  });
  afterEach(async () => {
    vi.useRealTimers();
    await scenario.sim.close();
  });

  it('writes nothing after the lease is lost, and its report says so', async () => {
    const evictable = scenario.plan.unmanagedPods?.evictable ?? [];
    expect(evictable.length).toBeGreaterThan(1);
    const config = testConfig();
    const leaseMs = config.limits.leaseSeconds * 1000;
    const clock = testClock(new Date());
    const { store, leaseKeys } = observedStore();
    const output = collector();
    const ports = testPorts({
      config,
      store,
      queue: recordingQueue(),
      chat: consoleSink(output.stream),
      now: clock.now,
    });
    let takenOver = false;
    const stall = async () => {
      // The worker stalls past its lease, another worker takes it, then the heartbeat comes round.
      clock.advance(leaseMs + 1_000);
      const [key] = leaseKeys;
      takenOver = await store.leases.acquire(
        key as string,
        'another-worker',
        config.limits.leaseSeconds,
        clock.now(),
      );
      await vi.advanceTimersByTimeAsync(leaseMs / 3);
    };
    const worker = createWorker(ports, {
      runbooks: RUNBOOKS,
      connect: async () => withHook(scenario.access, stall),
    });
    const app = createApp(ports);
    const queue = ports.queue as ReturnType<typeof recordingQueue>;
    await app.dispatch(parseAlertmanager(unmanagedAlert(), { receivedAt: clock.now() }));
    const [job] = queue.sent as [Job];

    const { record, report } = await worker.run(job);

    expect(takenOver).toBe(true);
    const evictions = report?.steps.find((s) => s.id === 'restart-unmanaged')?.done ?? [];
    expect(evictions.filter((d) => d.outcome === 'done')).toHaveLength(1);
    const after = evictions.slice(1).filter((d) => d.outcome !== 'blocked');
    expect(after.length).toBeGreaterThan(0);
    for (const decision of after) {
      expect(decision.outcome).toBe('skipped');
      expect(decision.detail).toMatch(
        /^the run lost its lease at .*: another run may hold it, so nothing more is written$/,
      );
    }
    // The cluster agrees: one planted pod is gone, every other one is still there.
    const uids = new Set(
      (await scenario.access.kube.list(RESOURCES.pods, { project: 'metadata' })).map(
        (pod) => pod.metadata.uid,
      ),
    );
    expect(evictable.filter((pod) => !uids.has(pod.uid))).toHaveLength(1);
    // The audit record and the posted report say why the rest was not done.
    expect(record.actions.filter((a) => a.includes('the run lost its lease'))).toHaveLength(after.length);
    expect(output.text()).toContain('the run lost its lease');
  });
});
