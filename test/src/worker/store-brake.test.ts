import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PodRef, UnmanagedPodsPlan } from '../../../sim/scenarios/plan.ts';
import { KubeError, type KubeFacade } from '../../../src/cluster/types.ts';
import { createActuator } from '../../../src/engine/actuator.ts';
import { SILENT } from '../../../src/engine/run.ts';
import { DEFAULT_LIMITS } from '../../../src/engine/types.ts';
import { memoryStore } from '../../../src/store/index.ts';
import { storeBrake } from '../../../src/worker/run-job.ts';
import { testConfig } from '../../functions/harness.ts';
import { type SimUnderTest, startScenario } from '../../helpers/sim-access.ts';

let current: SimUnderTest;
beforeEach(async () => {
  current = await startScenario(['unmanaged-pods']);
});
afterEach(() => current.sim.close());

describe('the brake counts only writes that happened', () => {
  it('an eviction the API fails is given back; one that lands stays counted', async () => {
    const store = memoryStore();
    const config = testConfig({ maxWrites: 5 });
    const brake = storeBrake({ config, store, now: () => new Date() });
    let failNext = true;
    const kube: KubeFacade = {
      ...current.access.kube,
      get: current.access.kube.get.bind(current.access.kube),
      list: current.access.kube.list.bind(current.access.kube),
      exec: current.access.kube.exec.bind(current.access.kube),
      deletePod: current.access.kube.deletePod.bind(current.access.kube),
      clusterName: current.access.kube.clusterName,
      evict: async (namespace, name, options) => {
        if (!options.dryRun && failNext) {
          failNext = false;
          throw new KubeError('unavailable', 'create', 'pods/eviction', 'etcdserver: request timed out', 503);
        }
        return current.access.kube.evict(namespace, name, options);
      },
    };
    const actuator = createActuator({
      cluster: 'prod-eu',
      kube,
      cilium: current.access.cilium,
      mode: 'auto',
      limits: DEFAULT_LIMITS,
      brake,
      log: SILENT,
    });
    const pod = (current.plan.unmanagedPods as UnmanagedPodsPlan).evictable.find((p) =>
      p.name.startsWith('checkout-'),
    ) as PodRef;
    const window = () => store.brake.state('prod-eu', 5, 15 * 60, new Date());

    expect(await actuator.evictPod(pod, 'no CiliumEndpoint')).toMatchObject({ outcome: 'failed' });
    expect((await window()).used).toBe(0);

    expect(await actuator.evictPod(pod, 'no CiliumEndpoint')).toMatchObject({ outcome: 'done' });
    expect((await window()).used).toBe(1);
  });
});
