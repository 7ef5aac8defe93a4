import { R, type SimCluster } from '../cluster.ts';
import type { OwnerReference, Pod, PodSpec } from '../objects.ts';
import { allocationsOf } from './allocations.ts';
import { type ContainerHealth, makePod } from './make/pod.ts';
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

/** What the pods of one workload share, kept once for them (a row points at it). */
type PodShape = Readonly<Omit<SpawnInput, 'node' | 'hostIP'>>;

/**
 * A spawned pod as stored: its shape, what is its own, and its random ids kept as a seed (see
 * seeded-ids.ts). About 80 bytes, where the facts spelled out were about 400.
 */
interface SpawnedRow extends IdSeed {
  shape: PodShape;
  name: string;
  node: string;
  hostIP: string;
  podIP: string | undefined;
}

const SHAPE_FIELDS = [
  'namespace',
  'prefix',
  'labels',
  'annotations',
  'ownerReferences',
  'spec',
  'startedAt',
  'health',
] as const;

/** A workload's pods are spawned one after another: each reuses the shape before it while it fits. */
let lastShape: PodShape | undefined;

function shapeOf(input: SpawnInput): PodShape {
  const last = lastShape;
  if (last && SHAPE_FIELDS.every((field) => last[field] === input[field])) return last;
  const { node: _node, hostIP: _hostIP, ...shape } = input;
  lastShape = Object.freeze(shape);
  return lastShape;
}

function spawnedPod(row: SpawnedRow): Pod {
  const { shape } = row;
  const containers = shape.spec.containers.length + (shape.spec.initContainers?.length ?? 0);
  const containerIds: string[] = [];
  for (let i = 0; i < containers; i++) containerIds.push(seededHex(row, ID_SALT.container, 64, i));
  return makePod({
    namespace: shape.namespace,
    name: row.name,
    uid: seededUuid(row, ID_SALT.uid),
    generateName: shape.prefix,
    labels: shape.labels,
    ...(shape.annotations ? { annotations: shape.annotations } : {}),
    ownerReferences: shape.ownerReferences,
    spec: shape.spec,
    node: row.node,
    hostIP: row.hostIP,
    ...(row.podIP ? { podIP: row.podIP } : {}),
    startedAt: shape.startedAt,
    containerIds,
    health: shape.health,
  });
}

/**
 * Creates a scheduled, running pod on a node: a fresh name, uid, address and container ids. Kept
 * as a compact row until something writes to it.
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
    shape: shapeOf(input),
    name,
    node: input.node,
    hostIP: input.hostIP,
    podIP: input.spec.hostNetwork ? undefined : allocations.podIp(input.node),
    seedHi: seed.seedHi,
    seedLo: seed.seedLo,
  };
  return store.createCompact(R.pods, row, spawnedPod);
}
