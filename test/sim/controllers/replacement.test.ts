import { afterEach, describe, expect, it, vi } from 'vitest';
import { AGENT_CONTAINER, CILIUM_NAMESPACE, R, type SimCluster } from '../../../sim/cluster.ts';
import { startControllers } from '../../../sim/controllers/index.ts';
import type { KubeObject, Pod } from '../../../sim/objects.ts';
import { buildScenario } from '../../../sim/scenarios/index.ts';
import type { PodRef } from '../../../sim/scenarios/plan.ts';
import { agentPods, clock, endpoint, isReady, pods } from '../scenarios/helpers.ts';

const CEP_DELAY_MS = 10;
const READY_DELAY_MS = 20;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let stops: (() => void)[] = [];
afterEach(() => {
  for (const stop of stops) stop();
  stops = [];
});

function start(scenarios: string[]) {
  const built = buildScenario(scenarios, { now: clock });
  stops.push(startControllers(built.cluster, { cepDelayMs: CEP_DELAY_MS, readyDelayMs: READY_DELAY_MS }));
  return built;
}

function get(cluster: SimCluster, ref: PodRef): Pod {
  return cluster.store.get<Pod>(R.pods, ref.namespace, ref.name) as Pod;
}

/** The stored version of a pod now (controllers write new versions). */
function latest(cluster: SimCluster, pod: Pod): Pod {
  return cluster.store.get<Pod>(R.pods, pod.metadata.namespace, pod.metadata.name) as Pod;
}

/** Deletes a pod (as an eviction does) and waits for its owner's replacement. */
async function deleteAndReplace(cluster: SimCluster, pod: Pod): Promise<Pod> {
  const owner = pod.metadata.ownerReferences?.[0]?.uid;
  const before = new Set(pods(cluster).map((p) => p.metadata.uid));
  cluster.store.delete(R.pods, pod.metadata.namespace, pod.metadata.name, { uid: pod.metadata.uid });
  return vi.waitFor(
    () => {
      const replacement = pods(cluster, pod.metadata.namespace).find(
        (p) => p.metadata.ownerReferences?.[0]?.uid === owner && !before.has(p.metadata.uid),
      );
      if (!replacement) throw new Error('no replacement yet');
      return replacement;
    },
    { timeout: 2000, interval: 2 },
  );
}

function events(cluster: SimCluster, about: KubeObject): KubeObject[] {
  return cluster.store.list(R.events, {
    namespace: about.metadata.namespace ?? 'default',
    filter: (e) => (e.involvedObject as { uid: string }).uid === about.metadata.uid,
  }).items;
}

describe('ReplicaSet replacement', () => {
  it('recreates an evicted unmanaged pod with a new name and uid on its node, with a CEP, then Ready', async () => {
    const { cluster, plan } = start(['unmanaged-pods']);
    const old = get(
      cluster,
      plan.unmanagedPods?.evictable.find((r) => r.name.startsWith('checkout-')) as PodRef,
    );
    const rsName = old.metadata.ownerReferences?.[0]?.name as string;
    const replacement = await deleteAndReplace(cluster, old);

    expect(replacement.metadata.name).toMatch(new RegExp(`^${rsName}-[bcdfghjklmnpqrstvwxz2456789]{5}$`));
    expect(replacement.metadata.name).not.toBe(old.metadata.name);
    expect(replacement.metadata.uid).not.toBe(old.metadata.uid);
    expect(replacement.spec.nodeName).toBe(old.spec.nodeName);
    expect(replacement.status?.phase).toBe('Running');
    expect(replacement.status?.podIP).not.toBe(old.status?.podIP);
    expect(isReady(replacement)).toBe(false);

    await vi.waitFor(() => expect(endpoint(cluster, replacement)).toBeDefined(), {
      timeout: 2000,
      interval: 2,
    });
    const cep = endpoint(cluster, replacement);
    expect(cep?.metadata.ownerReferences?.[0]?.uid).toBe(replacement.metadata.uid);
    await vi.waitFor(() => expect(isReady(latest(cluster, replacement))).toBe(true), {
      timeout: 2000,
      interval: 2,
    });
  });

  it("records the controllers' events: SuccessfulCreate, Scheduled, Killing", async () => {
    const { cluster, plan } = start(['unmanaged-pods']);
    const old = get(
      cluster,
      plan.unmanagedPods?.evictable.find((r) => r.name.startsWith('checkout-')) as PodRef,
    );
    const replacement = await deleteAndReplace(cluster, old);
    const rs = cluster.store.get<KubeObject>(
      R.replicasets,
      old.metadata.namespace,
      old.metadata.ownerReferences?.[0]?.name as string,
    );
    expect(events(cluster, rs as KubeObject)).toContainEqual(
      expect.objectContaining({
        reason: 'SuccessfulCreate',
        message: `Created pod: ${replacement.metadata.name}`,
        type: 'Normal',
        source: { component: 'replicaset-controller' },
        count: 1,
        involvedObject: expect.objectContaining({ kind: 'ReplicaSet', name: rs?.metadata.name }),
      }),
    );
    expect(events(cluster, replacement)).toContainEqual(
      expect.objectContaining({
        reason: 'Scheduled',
        message: `Successfully assigned ${replacement.metadata.namespace}/${replacement.metadata.name} to ${replacement.spec.nodeName}`,
        source: { component: 'default-scheduler' },
      }),
    );
    expect(events(cluster, old)).toContainEqual(
      expect.objectContaining({
        reason: 'Killing',
        message: 'Stopping container app',
        source: { component: 'kubelet', host: old.spec.nodeName },
        firstTimestamp: expect.any(String),
        lastTimestamp: expect.any(String),
      }),
    );
  });

  it("deletes the old pod's CEP with it", async () => {
    const { cluster } = start(['healthy']);
    const old = pods(cluster, 'shop').find((p) => p.metadata.labels?.app === 'frontend') as Pod;
    expect(endpoint(cluster, old)).toBeDefined();
    await deleteAndReplace(cluster, old);
    expect(endpoint(cluster, old)).toBeUndefined();
  });

  it('moves to a node with a ready agent when the old node has none, and gets a CEP there', async () => {
    const { cluster } = start(['healthy']);
    const old = pods(cluster, 'shop').find((p) => p.metadata.labels?.app === 'frontend') as Pod;
    const agent = cluster.agents.get(old.spec.nodeName as string);
    if (agent) agent.ready = false;
    const replacement = await deleteAndReplace(cluster, old);
    expect(replacement.spec.nodeName).not.toBe(old.spec.nodeName);
    expect(cluster.agents.get(replacement.spec.nodeName as string)?.ready).toBe(true);
    expect(replacement.status?.hostIP).not.toBe(old.status?.hostIP);
    await vi.waitFor(() => expect(endpoint(cluster, replacement)).toBeDefined(), {
      timeout: 2000,
      interval: 2,
    });
  });

  it('keeps a replacement of a probe-blocked pod unready while the host mark rule is missing', async () => {
    const { cluster, plan } = start(['host-identity-world']);
    const old = get(cluster, plan.hostIdentity?.failingPods[0] as PodRef);
    const replacement = await deleteAndReplace(cluster, old);
    await vi.waitFor(() => expect(endpoint(cluster, replacement)).toBeDefined(), {
      timeout: 2000,
      interval: 2,
    });
    await sleep(READY_DELAY_MS * 4);
    expect(isReady(latest(cluster, replacement))).toBe(false);
  });
});

describe('DaemonSet replacement', () => {
  it('recreates a pod on the same node, with a CEP where the agent is ready', async () => {
    const { cluster, plan } = start(['unmanaged-pods']);
    const old = get(
      cluster,
      plan.unmanagedPods?.evictable.find((r) => r.name.startsWith('log-shipper-')) as PodRef,
    );
    const replacement = await deleteAndReplace(cluster, old);
    expect(replacement.metadata.name).toMatch(/^log-shipper-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    expect(replacement.spec.nodeName).toBe(old.spec.nodeName);
    expect(replacement.metadata.labels).toEqual(old.metadata.labels);
    await vi.waitFor(() => expect(endpoint(cluster, replacement)).toBeDefined(), {
      timeout: 2000,
      interval: 2,
    });
    const ds = cluster.store.get<KubeObject>(R.daemonsets, 'logging', 'log-shipper') as KubeObject;
    expect(events(cluster, ds)).toContainEqual(
      expect.objectContaining({ reason: 'SuccessfulCreate', source: { component: 'daemonset-controller' } }),
    );
  });

  it('gives no CEP to a replacement on a node whose agent is not ready', async () => {
    const { cluster, plan } = start(['unmanaged-pods']);
    const old = get(cluster, plan.unmanagedPods?.onNotReadyAgent[0] as PodRef);
    const replacement = await deleteAndReplace(cluster, old);
    expect(replacement.spec.nodeName).toBe(old.spec.nodeName);
    await sleep(CEP_DELAY_MS * 5);
    expect(endpoint(cluster, replacement)).toBeUndefined();
  });

  it('gives no CEP to a hostNetwork replacement (aws-node)', async () => {
    const { cluster, plan } = start(['unmanaged-pods']);
    const old = get(cluster, plan.unmanagedPods?.awsNode[0] as PodRef);
    const replacement = await deleteAndReplace(cluster, old);
    expect(replacement.spec.hostNetwork).toBe(true);
    expect(replacement.status?.podIP).toBe(replacement.status?.hostIP);
    await sleep(CEP_DELAY_MS * 5);
    expect(endpoint(cluster, replacement)).toBeUndefined();
  });
});

describe('Cilium agent restart', () => {
  it('brings back the agent with a new container, keeping its state', async () => {
    const { cluster } = start(['healthy']);
    const old = agentPods(cluster)[0] as Pod;
    const state = cluster.agentForPod(old);
    const oldPath = state?.cgroup.containerPath;
    const replacement = await deleteAndReplace(cluster, old);
    expect(cluster.agentForPod(replacement)).toBe(state);
    const id = replacement.status?.containerStatuses
      ?.find((c) => c.name === AGENT_CONTAINER)
      ?.containerID?.slice(13);
    expect(state?.cgroup.containerPath).not.toBe(oldPath);
    expect(state?.cgroup.containerPath).toContain(`cri-containerd-${id}.scope`);
    expect(state?.cgroup.containerPath).toContain((replacement.metadata.uid as string).replaceAll('-', '_'));
    await vi.waitFor(() => expect(isReady(latest(cluster, replacement))).toBe(true), {
      timeout: 2000,
      interval: 2,
    });
  });

  it('installs the host mark rule on restart once cilium-config allows it, and only there', async () => {
    const { cluster } = start(['host-identity-world']);
    cluster.store.update<KubeObject>(R.configmaps, CILIUM_NAMESPACE, 'cilium-config', (cm) => ({
      ...cm,
      data: { ...(cm.data as Record<string, string>), 'install-iptables-rules': 'true' },
    }));
    const [restarted, untouched] = agentPods(cluster) as [Pod, Pod];
    const state = cluster.agentForPod(restarted);
    expect(state?.drops.length).toBeGreaterThan(0);
    await deleteAndReplace(cluster, restarted);
    expect(state?.iptables.hostMarkRule).toBe(true);
    expect(state?.drops).toEqual([]);
    expect(cluster.agentForPod(untouched)?.iptables.hostMarkRule).toBe(false);
  });

  it('mounts the host cgroup root on restart once the template has the mount-cgroup init container', async () => {
    const { cluster } = start(['cgroup-private-ns']);
    const fixed = (cluster.store.get<KubeObject>(R.daemonsets, CILIUM_NAMESPACE, 'cilium') as KubeObject)
      .spec as {
      template: { spec: Pod['spec'] };
    };
    const image = fixed.template.spec.containers[0]?.image;
    cluster.store.update<KubeObject>(R.daemonsets, CILIUM_NAMESPACE, 'cilium', (ds) => ({
      ...ds,
      spec: {
        ...fixed,
        template: {
          ...fixed.template,
          spec: {
            ...fixed.template.spec,
            initContainers: [{ name: 'mount-cgroup', image }, ...(fixed.template.spec.initContainers ?? [])],
          },
        },
      },
    }));
    const old = agentPods(cluster)[0] as Pod;
    const state = cluster.agentForPod(old);
    expect(state?.cgroup.mountIsHostRoot).toBe(false);
    const replacement = await deleteAndReplace(cluster, old);
    expect(replacement.spec.initContainers?.map((c) => c.name)).toContain('mount-cgroup');
    expect(state?.cgroup.mountIsHostRoot).toBe(true);
    expect(state?.logs.some((line) => line.includes('Mounted cgroupv2 filesystem'))).toBe(true);
  });
});

describe('what the controllers leave alone', () => {
  it('does not recreate a mirror pod (owned by its Node)', async () => {
    const { cluster, plan } = start(['unmanaged-pods']);
    const mirror = get(cluster, plan.unmanagedPods?.mirror[0] as PodRef);
    const count = cluster.store.count(R.pods);
    cluster.store.delete(R.pods, mirror.metadata.namespace, mirror.metadata.name);
    await sleep(CEP_DELAY_MS * 3);
    expect(cluster.store.count(R.pods)).toBe(count - 1);
  });

  it('stops reacting once stopped', async () => {
    const { cluster } = buildScenario(['healthy'], { now: clock });
    const stop = startControllers(cluster, { cepDelayMs: CEP_DELAY_MS, readyDelayMs: READY_DELAY_MS });
    stop();
    const old = pods(cluster, 'shop')[0] as Pod;
    const count = cluster.store.count(R.pods);
    cluster.store.delete(R.pods, old.metadata.namespace, old.metadata.name);
    await sleep(CEP_DELAY_MS * 3);
    expect(cluster.store.count(R.pods)).toBe(count - 1);
    expect(endpoint(cluster, old)).toBeDefined();
  });
});
