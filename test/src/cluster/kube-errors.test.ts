import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { R } from '../../../sim/cluster.ts';
import { type Sim, startSim } from '../../../sim/index.ts';
import { planOf } from '../../../sim/scenarios/index.ts';
import type { PodRef } from '../../../sim/scenarios/plan.ts';
import { type ClusterAccess, RESOURCES } from '../../../src/cluster/types.ts';
import { accessTo, countRequests, kubeErrorOf } from './fixtures.ts';

describe('KubeFacade typed errors', () => {
  let sim: Sim;
  let access: ClusterAccess;
  let victim: PodRef;

  beforeAll(async () => {
    sim = await startSim({ scenarios: ['unmanaged-pods'], controllers: false });
    access = accessTo(sim);
    victim = planOf(sim.cluster)?.unmanagedPods?.evictable[0] as PodRef;
  });
  afterAll(() => sim.close());
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('names the verb and resource a token may not use, without retrying', async () => {
    const viewer = sim.issueToken('pod-reader', [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }]);
    const limited = accessTo(sim, { kubeconfigToken: viewer.token });
    const requests = countRequests(sim);

    const list = await kubeErrorOf(limited.kube.list(RESOURCES.pods, { project: 'metadata' }));
    expect(list.kind).toBe('forbidden');
    expect(list.message).toMatch(/^forbidden: list pods \(/);
    expect(list.detail).toContain('User "pod-reader" cannot list resource "pods"');
    expect(list.status).toBe(403);

    const evict = await kubeErrorOf(limited.kube.evict(victim.namespace, victim.name, { uid: victim.uid }));
    expect(evict.kind).toBe('forbidden');
    expect(evict.message).toMatch(/^forbidden: create pods\/eviction \(/);
    expect(requests()).toBe(2);

    // What the token allows works.
    const pod = await limited.kube.get(RESOURCES.pods, victim.namespace, victim.name);
    expect(pod.metadata.uid).toBe(victim.uid);
  });

  it('reports a missing object as not-found, without retrying', async () => {
    const requests = countRequests(sim);
    const error = await kubeErrorOf(access.kube.get(RESOURCES.configmaps, 'kube-system', 'no-such-config'));
    expect(error.kind).toBe('not-found');
    expect(error.message).toBe('not-found: get configmaps (configmaps "no-such-config" not found)');
    expect(requests()).toBe(1);
  });

  it('reads custom and cluster-scoped resources', async () => {
    const node = planOf(sim.cluster)?.nodes[0] as string;
    const ciliumNode = await access.kube.get(RESOURCES.ciliumnodes, undefined, node);
    expect(ciliumNode.kind).toBe('CiliumNode');
    expect(ciliumNode.metadata.name).toBe(node);
  });

  it('refuses a pod delete whose uid precondition no longer holds', async () => {
    const error = await kubeErrorOf(access.kube.deletePod(victim.namespace, victim.name, 'not-the-uid'));
    expect(error.kind).toBe('conflict');
    expect(error.status).toBe(409);
    expect(error.message).toMatch(/^conflict: delete pods \(.*the UID in the precondition \(not-the-uid\)/);
    const still = await access.kube.get(RESOURCES.pods, victim.namespace, victim.name);
    expect(still.metadata.uid).toBe(victim.uid);
  });

  it('deletes a pod whose uid matches', async () => {
    const target = planOf(sim.cluster)?.unmanagedPods?.young[0] as PodRef;
    await access.kube.deletePod(target.namespace, target.name, target.uid);
    const error = await kubeErrorOf(access.kube.get(RESOURCES.pods, target.namespace, target.name));
    expect(error.kind).toBe('not-found');
  });

  it('tells an unknown token from a forbidden one', async () => {
    const stranger = accessTo(sim, { kubeconfigToken: 'not-a-token' });
    const error = await kubeErrorOf(stranger.kube.get(RESOURCES.pods, victim.namespace, victim.name));
    expect(error.kind).toBe('unauthorized');
    expect(error.status).toBe(401);
  });

  it('reports a request the server cannot serve as invalid', async () => {
    const error = await kubeErrorOf(
      access.kube.list(RESOURCES.pods, { fieldSelector: 'spec.containers=app', project: 'metadata' }),
    );
    expect(error.kind).toBe('invalid');
    expect(error.status).toBe(400);
    expect(error.message).toMatch(/^invalid: list pods \(.*spec\.containers/);
  });

  it('sends the token source on every request instead of the kubeconfig credentials', async () => {
    let issued = 0;
    const refreshed = accessTo(sim, {
      kubeconfigToken: 'expired-token',
      token: async () => {
        issued++;
        return sim.admin.token;
      },
    });
    await refreshed.kube.get(RESOURCES.pods, victim.namespace, victim.name);
    await refreshed.kube.list(RESOURCES.namespaces, { project: (ns) => ns.metadata.name, pageSize: 2 });
    const namespaces = sim.cluster.store.count(R.namespaces);
    expect(issued).toBe(1 + Math.ceil(namespaces / 2));
  });
});
