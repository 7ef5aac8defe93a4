import { R, type SimCluster } from '../cluster.ts';
import type { OwnerReference, Pod, PodSpec } from '../objects.ts';
import { allocationsOf } from './allocations.ts';
import { type ContainerHealth, makePod } from './make/pod.ts';
import { uniqueName } from './random.ts';

export interface SpawnInput {
  namespace: string;
  /** `generateName`: the pod is named this plus five random characters. */
  prefix: string;
  labels: Readonly<Record<string, string>>;
  annotations?: Readonly<Record<string, string>>;
  ownerReferences: readonly OwnerReference[];
  spec: PodSpec;
  node: string;
  hostIP: string;
  /** RFC 3339, to the second. */
  startedAt: string;
  health: ContainerHealth;
}

/**
 * Creates a scheduled, running pod on a node: a fresh name, uid, address and container ids. Kept
 * as its facts (a compact row) until something writes to it.
 */
export function spawnPod(cluster: SimCluster, input: SpawnInput): Pod {
  const allocations = allocationsOf(cluster);
  const { random } = allocations;
  const { store } = cluster;
  const name = uniqueName(
    random,
    input.prefix,
    (candidate) => store.get(R.pods, input.namespace, candidate) !== undefined,
  );
  const containerIds: string[] = [];
  const containers = input.spec.containers.length + (input.spec.initContainers?.length ?? 0);
  for (let i = 0; i < containers; i++) containerIds.push(random.hex(64));
  return store.createCompact(
    R.pods,
    {
      namespace: input.namespace,
      name,
      generateName: input.prefix,
      uid: random.uuid(),
      labels: input.labels,
      annotations: input.annotations,
      ownerReferences: input.ownerReferences,
      spec: input.spec,
      node: input.node,
      hostIP: input.hostIP,
      podIP: input.spec.hostNetwork ? undefined : allocations.podIp(input.node),
      startedAt: input.startedAt,
      containerIds,
      health: input.health,
    },
    makePod,
  );
}
