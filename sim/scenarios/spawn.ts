import { R, type SimCluster } from '../cluster.ts';
import type { OwnerReference, Pod, PodSpec } from '../objects.ts';
import { allocationsOf } from './allocations.ts';
import { type ContainerHealth, makePod, type PodFacts } from './make/pod.ts';
import { uniqueName } from './random.ts';
import { drawSeed, ID_SALT, type IdSeed, seededHex, seededUuid } from './seeded-ids.ts';

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

/** A spawned pod as stored: its facts with the random ids kept as a seed (see seeded-ids.ts). */
type SpawnedRow = Omit<PodFacts, 'uid' | 'containerIds'> & IdSeed;

function spawnedPod(row: SpawnedRow): Pod {
  const containers = row.spec.containers.length + (row.spec.initContainers?.length ?? 0);
  const containerIds: string[] = [];
  for (let i = 0; i < containers; i++) containerIds.push(seededHex(row, ID_SALT.container, 64, i));
  return makePod({ ...row, uid: seededUuid(row, ID_SALT.uid), containerIds });
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
  const seed = drawSeed(random);
  const row: SpawnedRow = {
    namespace: input.namespace,
    name,
    generateName: input.prefix,
    labels: input.labels,
    annotations: input.annotations,
    ownerReferences: input.ownerReferences,
    spec: input.spec,
    node: input.node,
    hostIP: input.hostIP,
    podIP: input.spec.hostNetwork ? undefined : allocations.podIp(input.node),
    startedAt: input.startedAt,
    health: input.health,
    seedHi: seed.seedHi,
    seedLo: seed.seedLo,
  };
  return store.createCompact(R.pods, row, spawnedPod);
}
