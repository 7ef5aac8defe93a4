import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PodRef, UnmanagedPodsPlan } from '../../../sim/scenarios/plan.ts';
import { type ClusterAccess, RESOURCES } from '../../../src/cluster/types.ts';
import { type ActuatorOptions, createActuator } from '../../../src/engine/actuator.ts';
import { SILENT } from '../../../src/engine/run.ts';
import { DEFAULT_LIMITS } from '../../../src/engine/types.ts';
import { type SimUnderTest, startScenario } from '../../helpers/sim-access.ts';

/**
 * The checks that can change while a write waits (the deadline, the run's lease) are made at the
 * moment the write is sent, after the slower ones (the eviction preview, the brake).
 */
let current: SimUnderTest;
let access: ClusterAccess;
let pod: PodRef;

beforeEach(async () => {
  current = await startScenario(['unmanaged-pods']);
  access = current.access;
  pod = (current.plan.unmanagedPods as UnmanagedPodsPlan).evictable.find((p) =>
    p.name.startsWith('checkout-'),
  ) as PodRef;
});
afterEach(() => current.sim.close());

function actuator(options: Partial<ActuatorOptions>) {
  return createActuator({
    cluster: access.name,
    kube: access.kube,
    cilium: access.cilium,
    mode: 'auto',
    limits: DEFAULT_LIMITS,
    brake: { tryWrite: async () => true },
    log: SILENT,
    ...options,
  });
}

const stillThere = async () => (await access.kube.get(RESOURCES.pods, pod.namespace, pod.name)).metadata.uid;

describe('a write is checked as it is sent', () => {
  it('a deadline that passes while the brake is asked stops the write', async () => {
    const deadline = new AbortController();
    const brake = {
      tryWrite: async () => {
        deadline.abort();
        return true;
      },
    };
    const done = await actuator({ brake, signal: deadline.signal }).evictPod(pod, 'no CiliumEndpoint');
    expect(done).toMatchObject({
      outcome: 'skipped',
      detail: 'deadline passed: the run is over, nothing written',
    });
    expect(await stillThere()).toBe(pod.uid);
  });

  it('a run that lost its lease writes nothing more', async () => {
    let lost: string | undefined;
    const brake = {
      tryWrite: async () => {
        lost =
          'the run lost its lease at 2026-11-24T04:00:00.000Z: another run may hold it, so nothing more is written';
        return true;
      },
    };
    const done = await actuator({ brake, fence: () => lost }).evictPod(pod, 'no CiliumEndpoint');
    expect(done).toMatchObject({
      outcome: 'skipped',
      detail: expect.stringMatching(/^the run lost its lease/),
    });
    expect(await stillThere()).toBe(pod.uid);
  });
});
