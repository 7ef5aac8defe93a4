import { R, type SimCluster } from '../cluster.ts';
import type { KubeObject, OwnerReference, Pod, PodSpec } from '../objects.ts';
import { recordEvent } from '../scenarios/make/events.ts';
import { controllerOf, controllerRef } from '../scenarios/make/meta.ts';
import type { ContainerHealth } from '../scenarios/make/pod.ts';
import { daemonPodLabels, podSpecOf } from '../scenarios/make/workloads.ts';
import { spawnPod } from '../scenarios/spawn.ts';
import { restartAgent } from './agent-restart.ts';
import { type ControllerContext, storeNow } from './context.ts';
import { probesPassAgain, startPod } from './pod-lifecycle.ts';

interface WorkloadSpec {
  replicas?: number;
  template: {
    metadata?: { labels?: Record<string, string>; annotations?: Record<string, string> };
    spec: PodSpec;
  };
}

const STARTING: ContainerHealth = { kind: 'starting' };

/** The owner a controller reference points at, if it still exists as that very object. */
function ownerOf(cluster: SimCluster, pod: Pod, ref: OwnerReference): KubeObject | undefined {
  const type = ref.kind === 'ReplicaSet' ? R.replicasets : R.daemonsets;
  const owner = cluster.store.get<KubeObject>(type, pod.metadata.namespace, ref.name);
  return owner?.metadata.uid === ref.uid ? owner : undefined;
}

/** Live pods a controller owns, optionally only on one node. */
function ownedPods(cluster: SimCluster, owner: KubeObject, node?: string): Pod[] {
  return cluster.store.list(R.pods, {
    namespace: owner.metadata.namespace as string,
    filter: (object) => {
      const pod = object as Pod;
      return (
        controllerOf(pod)?.uid === owner.metadata.uid &&
        !pod.metadata.deletionTimestamp &&
        (node === undefined || pod.spec.nodeName === node)
      );
    },
  }).items as Pod[];
}

function internalIP(node: KubeObject): string {
  const addresses = (node.status as { addresses?: { type: string; address: string }[] }).addresses ?? [];
  return addresses.find((a) => a.type === 'InternalIP')?.address as string;
}

/** Where the scheduler puts a ReplicaSet's new pod: the old node if its agent is ready, else any node whose agent is. */
function placeReplica(cluster: SimCluster, previous: string | undefined): KubeObject | undefined {
  const agentReady = (node: KubeObject) => cluster.agents.get(node.metadata.name)?.ready === true;
  const old = previous ? cluster.store.get<KubeObject>(R.nodes, undefined, previous) : undefined;
  if (old && agentReady(old)) return old;
  return cluster.store.list(R.nodes, { filter: agentReady, limit: 1 }).items[0] ?? old;
}

function createReplacement(
  ctx: ControllerContext,
  owner: KubeObject,
  component: string,
  pod: {
    labels: Record<string, string>;
    spec: PodSpec;
    pinnedToNode?: boolean;
    node: KubeObject;
    prefix: string;
  },
): Pod {
  const { cluster } = ctx;
  const template = (owner.spec as WorkloadSpec).template;
  const created = spawnPod(cluster, {
    namespace: owner.metadata.namespace as string,
    prefix: pod.prefix,
    labels: pod.labels,
    annotations: template.metadata?.annotations,
    ownerReferences: [controllerRef(owner)],
    spec: pod.spec,
    ...(pod.pinnedToNode ? { pinnedToNode: true } : {}),
    node: pod.node.metadata.name,
    hostIP: internalIP(pod.node),
    startedAt: cluster.store.timestamp(),
    health: STARTING,
  });
  const first = storeNow(cluster);
  const { store } = cluster;
  recordEvent(store, {
    about: owner,
    type: 'Normal',
    reason: 'SuccessfulCreate',
    message: `Created pod: ${created.metadata.name}`,
    component,
    first,
  });
  recordEvent(store, {
    about: created,
    type: 'Normal',
    reason: 'Scheduled',
    message: `Successfully assigned ${created.metadata.namespace}/${created.metadata.name} to ${pod.node.metadata.name}`,
    component: 'default-scheduler',
    first,
  });
  return created;
}

/** The ReplicaSet controller: below its replica count, it creates a pod from its template. */
function replaceReplica(ctx: ControllerContext, replicaSet: KubeObject, deleted: Pod): void {
  const spec = replicaSet.spec as WorkloadSpec;
  if (ownedPods(ctx.cluster, replicaSet).length >= (spec.replicas ?? 1)) return;
  const node = placeReplica(ctx.cluster, deleted.spec.nodeName);
  if (!node) return;
  const pod = createReplacement(ctx, replicaSet, 'replicaset-controller', {
    prefix: `${replicaSet.metadata.name}-`,
    labels: spec.template.metadata?.labels ?? {},
    spec: podSpecOf(spec.template.spec, 'ReplicaSet'),
    node,
  });
  startPod(ctx, pod);
}

/** The DaemonSet controller: a node without its pod gets a new one, from the current template. */
function replaceDaemonPod(ctx: ControllerContext, daemonSet: KubeObject, deleted: Pod): void {
  const nodeName = deleted.spec.nodeName as string;
  const node = ctx.cluster.store.get<KubeObject>(R.nodes, undefined, nodeName);
  if (!node || ownedPods(ctx.cluster, daemonSet, nodeName).length > 0) return;
  const template = (daemonSet.spec as WorkloadSpec).template;
  const revision = deleted.metadata.labels?.['controller-revision-hash'] ?? '';
  const pod = createReplacement(ctx, daemonSet, 'daemonset-controller', {
    prefix: `${daemonSet.metadata.name}-`,
    labels: daemonPodLabels(template.metadata?.labels ?? {}, revision, daemonSet.metadata.generation ?? 1),
    spec: podSpecOf(template.spec, 'DaemonSet'),
    pinnedToNode: true,
    node,
  });
  const agent = ctx.cluster.agentForPod(pod);
  if (agent) restartAgent(ctx, pod, template.spec);
  startPod(ctx, pod, agent !== undefined && !agent.ready);
  if (agent) probesPassAgain(ctx, nodeName);
}

/** A deleted (or evicted) pod's controller, if a ReplicaSet or DaemonSet still there, replaces it. */
export function replaceDeletedPod(ctx: ControllerContext, pod: Pod): void {
  const ref = controllerOf(pod);
  if (ref?.kind !== 'ReplicaSet' && ref?.kind !== 'DaemonSet') return;
  const owner = ownerOf(ctx.cluster, pod, ref);
  if (!owner) return;
  if (ref.kind === 'ReplicaSet') replaceReplica(ctx, owner, pod);
  else replaceDaemonPod(ctx, owner, pod);
}
