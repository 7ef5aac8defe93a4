import { CoreV1Api, CustomObjectsApi, type V1Pod } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sim, startSim } from '../../sim/index.ts';
import { buildScenario } from '../../sim/scenarios/index.ts';
import type { PodRef, UnmanagedPodsPlan } from '../../sim/scenarios/plan.ts';
import { kubeConfigFor } from './harness.ts';

/** Remediation through the API is real: evicted or deleted pods come back, managed where they can be. */
describe('controllers, seen through @kubernetes/client-node', () => {
  let sim: Sim;
  let plan: UnmanagedPodsPlan;
  let core: CoreV1Api;
  let custom: CustomObjectsApi;

  beforeAll(async () => {
    const built = buildScenario(['unmanaged-pods']);
    plan = built.plan.unmanagedPods as UnmanagedPodsPlan;
    sim = await startSim({ cluster: built.cluster });
    core = kubeConfigFor(sim).makeApiClient(CoreV1Api);
    custom = kubeConfigFor(sim).makeApiClient(CustomObjectsApi);
  });
  afterAll(() => sim.close());

  const ownerOf = (pod: V1Pod) => pod.metadata?.ownerReferences?.find((o) => o.controller)?.name;

  /** Polls until the owner has a pod other than the old one (bounded). */
  async function replacementOf(old: PodRef, owner: string): Promise<V1Pod> {
    for (let attempt = 0; attempt < 100; attempt++) {
      const pods = await core.listNamespacedPod({ namespace: old.namespace });
      const found = pods.items.find(
        (p) => ownerOf(p) === owner && p.metadata?.name !== old.name && p.spec?.nodeName === old.node,
      );
      if (found) return found;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`no replacement for ${old.namespace}/${old.name}`);
  }

  async function hasCep(namespace: string, name: string): Promise<boolean> {
    for (let attempt = 0; attempt < 40; attempt++) {
      try {
        await custom.getNamespacedCustomObject({
          group: 'cilium.io',
          version: 'v2',
          namespace,
          plural: 'ciliumendpoints',
          name,
        });
        return true;
      } catch {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
    return false;
  }

  it('an evicted DaemonSet pod comes back on the same node with a new uid and a CiliumEndpoint', async () => {
    const victim = plan.evictable.find((p) => p.name.startsWith('log-shipper')) as PodRef;
    const owner = ownerOf(
      await core.readNamespacedPod({ namespace: victim.namespace, name: victim.name }),
    ) as string;
    await core.createNamespacedPodEviction({
      namespace: victim.namespace,
      name: victim.name,
      body: {
        metadata: { name: victim.name, namespace: victim.namespace },
        deleteOptions: { preconditions: { uid: victim.uid } },
      },
    });
    const replacement = await replacementOf(victim, owner);
    expect(replacement.metadata?.uid).not.toBe(victim.uid);
    expect(replacement.spec?.nodeName).toBe(victim.node);
    expect(await hasCep(victim.namespace, replacement.metadata?.name as string)).toBe(true);
    const events = await core.listNamespacedEvent({
      namespace: victim.namespace,
      fieldSelector: 'reason=SuccessfulCreate',
    });
    expect(events.items.map((e) => e.message)).toContain(`Created pod: ${replacement.metadata?.name}`);
  });

  it('a pod deleted on a node whose agent is not ready comes back without a CiliumEndpoint', async () => {
    const victim = plan.onNotReadyAgent[0] as PodRef;
    const owner = ownerOf(
      await core.readNamespacedPod({ namespace: victim.namespace, name: victim.name }),
    ) as string;
    await core.deleteNamespacedPod({ namespace: victim.namespace, name: victim.name });
    const replacement = await replacementOf(victim, owner);
    expect(replacement.metadata?.uid).not.toBe(victim.uid);
    expect(await hasCep(victim.namespace, replacement.metadata?.name as string)).toBe(false);
  });

  it('the PodDisruptionBudget-protected pod refuses eviction with 429 and stays', async () => {
    const guarded = plan.blockedByBudget[0] as PodRef;
    await expect(
      core.createNamespacedPodEviction({
        namespace: guarded.namespace,
        name: guarded.name,
        body: { metadata: { name: guarded.name } },
      }),
    ).rejects.toMatchObject({ code: 429 });
    expect(
      (await core.readNamespacedPod({ namespace: guarded.namespace, name: guarded.name })).metadata?.uid,
    ).toBe(guarded.uid);
  });
});
