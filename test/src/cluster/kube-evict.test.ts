import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { type Sim, startSim } from '../../../sim/index.ts';
import { planOf } from '../../../sim/scenarios/index.ts';
import type { PodRef, UnmanagedPodsPlan } from '../../../sim/scenarios/plan.ts';
import { type ClusterAccess, RESOURCES } from '../../../src/cluster/types.ts';
import { accessTo, countRequests, failByPattern, kubeErrorOf } from './fixtures.ts';

describe('KubeFacade.evict', () => {
  let sim: Sim;
  let access: ClusterAccess;
  let plan: UnmanagedPodsPlan;

  beforeAll(async () => {
    sim = await startSim({ scenarios: ['unmanaged-pods'], controllers: false });
    access = accessTo(sim, { retries: 2 });
    plan = planOf(sim.cluster)?.unmanagedPods as UnmanagedPodsPlan;
  });
  afterAll(() => sim.close());
  afterEach(() => {
    vi.restoreAllMocks();
    sim.faults.clear();
  });

  const uidOf = async (pod: PodRef) =>
    (await access.kube.get(RESOURCES.pods, pod.namespace, pod.name)).metadata.uid;

  it('leaves the pod in place on a dry run', async () => {
    const pod = plan.evictable[0] as PodRef;
    expect(await access.kube.evict(pod.namespace, pod.name, { uid: pod.uid, dryRun: true })).toEqual({
      outcome: 'evicted',
    });
    expect(await uidOf(pod)).toBe(pod.uid);
  });

  it('evicts a pod whose uid matches', async () => {
    const pod = plan.evictable[0] as PodRef;
    expect(await access.kube.evict(pod.namespace, pod.name, { uid: pod.uid })).toEqual({
      outcome: 'evicted',
    });
    expect((await kubeErrorOf(uidOf(pod))).kind).toBe('not-found');
  });

  it('reports a pod that is already gone', async () => {
    const pod = plan.evictable[0] as PodRef;
    expect(await access.kube.evict(pod.namespace, pod.name, { uid: pod.uid })).toEqual({ outcome: 'gone' });
  });

  it('refuses when the pod was replaced under the same name', async () => {
    const pod = plan.evictable[1] as PodRef;
    expect(await access.kube.evict(pod.namespace, pod.name, { uid: 'uid-of-an-older-pod' })).toEqual({
      outcome: 'uid-changed',
    });
    expect(await uidOf(pod)).toBe(pod.uid);
  });

  it("returns a PodDisruptionBudget's refusal as a result, without retrying it", async () => {
    const pod = plan.blockedByBudget[0] as PodRef;
    const requests = countRequests(sim);
    const result = await access.kube.evict(pod.namespace, pod.name, { uid: pod.uid });
    expect(result.outcome).toBe('blocked-by-pdb');
    expect(result).toHaveProperty(
      'message',
      expect.stringContaining(`disruption budget ${plan.budget.name}`),
    );
    expect(requests()).toBe(1);
    expect(await uidOf(pod)).toBe(pod.uid);
  });

  it('retries an eviction the server throttled before handling it', async () => {
    const pod = plan.evictable[2] as PodRef;
    sim.faults.set('eviction', { errorRate: 1, errorCode: 429, retryAfterSeconds: 0 });
    const attempts = failByPattern(sim, 'eviction', [true]);
    expect(await access.kube.evict(pod.namespace, pod.name, { uid: pod.uid })).toEqual({
      outcome: 'evicted',
    });
    expect(attempts()).toBe(2);
  });

  it('does not repeat an eviction that failed with a server error, which may have happened', async () => {
    const pod = plan.evictable[1] as PodRef;
    sim.faults.set('eviction', { errorRate: 1, errorCode: 500 });
    const attempts = failByPattern(sim, 'eviction', [true]);
    const error = await kubeErrorOf(access.kube.evict(pod.namespace, pod.name, { uid: pod.uid }));
    expect(error.kind).toBe('unavailable');
    expect(error.message).toMatch(/^unavailable: create pods\/eviction/);
    expect(attempts()).toBe(1);
    expect(await uidOf(pod)).toBe(pod.uid);
  });
});
