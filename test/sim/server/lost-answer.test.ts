import { ApiException, CoreV1Api } from '@kubernetes/client-node';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { R, SimCluster } from '../../../sim/cluster.ts';
import { type Sim, startSim } from '../../../sim/index.ts';
import type { Pod } from '../../../sim/objects.ts';
import { kubeConfigFor } from '../harness.ts';

function pod(name: string): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'shop' },
    spec: { containers: [{ name: 'app', image: 'nginx' }], nodeName: 'node-a' },
    status: { phase: 'Running' },
  };
}

/** How a call failed: its HTTP code and Status, or a connection error's code. */
async function failure(call: Promise<unknown>): Promise<{ code?: number; body?: unknown; errno?: string }> {
  try {
    await call;
  } catch (error) {
    if (error instanceof ApiException)
      return { code: error.code, body: typeof error.body === 'string' ? JSON.parse(error.body) : error.body };
    return { errno: (error as NodeJS.ErrnoException).code ?? String(error) };
  }
  throw new Error('expected the call to fail');
}

describe('a write the simulator applies and then fails to answer (fault afterApply)', () => {
  let sim: Sim;
  let core: CoreV1Api;
  beforeAll(async () => {
    const cluster = new SimCluster();
    cluster.store.create(R.namespaces, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop' } });
    sim = await startSim({ cluster, controllers: false });
    core = kubeConfigFor(sim).makeApiClient(CoreV1Api);
  });
  afterAll(() => sim.close());
  beforeEach(() => sim.faults.clear());
  const exists = (name: string) => sim.cluster.store.get(R.pods, 'shop', name) !== undefined;

  it('an eviction answered 504 with kube-apiserver Timeout Status has still evicted the pod', async () => {
    sim.cluster.store.create(R.pods, pod('evict-504'));
    sim.faults.set('eviction', { errorRate: 1, errorCode: 504, afterApply: true });
    const eviction = { metadata: { name: 'evict-504', namespace: 'shop' } };
    const failed = await failure(
      core.createNamespacedPodEviction({ name: 'evict-504', namespace: 'shop', body: eviction }),
    );
    expect(failed).toMatchObject({
      code: 504,
      body: {
        kind: 'Status',
        reason: 'Timeout',
        code: 504,
        message: expect.stringMatching(/^Timeout: request did not complete within requested timeout/),
      },
    });
    expect(exists('evict-504')).toBe(false);
  });

  it('a pod delete answered 500 has still deleted it', async () => {
    sim.cluster.store.create(R.pods, pod('delete-500'));
    sim.faults.set('delete', { errorRate: 1, errorCode: 500, afterApply: true });
    expect(await failure(core.deleteNamespacedPod({ name: 'delete-500', namespace: 'shop' }))).toMatchObject({
      code: 500,
    });
    expect(exists('delete-500')).toBe(false);
  });

  it('a reset connection after the write: no answer at all, and the pod is gone', async () => {
    sim.cluster.store.create(R.pods, pod('delete-reset'));
    sim.faults.set('delete', { errorRate: 1, errorCode: 'reset', afterApply: true });
    expect(await failure(core.deleteNamespacedPod({ name: 'delete-reset', namespace: 'shop' }))).toEqual({
      errno: 'ECONNRESET',
    });
    expect(exists('delete-reset')).toBe(false);
  });

  it('without afterApply the same faults fail before the write: the pod stays', async () => {
    sim.cluster.store.create(R.pods, pod('kept'));
    sim.faults.set('delete', { errorRate: 1, errorCode: 504 });
    expect(await failure(core.deleteNamespacedPod({ name: 'kept', namespace: 'shop' }))).toMatchObject({
      code: 504,
    });
    sim.faults.set('delete', { errorRate: 1, errorCode: 'reset' });
    expect(await failure(core.deleteNamespacedPod({ name: 'kept', namespace: 'shop' }))).toEqual({
      errno: 'ECONNRESET',
    });
    expect(exists('kept')).toBe(true);
  });
});
