import { R, type SimCluster } from '../cluster.ts';
import type { CompactKind, Value } from '../compact.ts';
import type { OwnerReference, Pod, PodSpec } from '../objects.ts';
import { allocationsOf } from './allocations.ts';
import { type ContainerHealth, makePod } from './make/pod.ts';
import { daemonPodSpec } from './make/workloads.ts';
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
  /** A DaemonSet's pod: `spec` pinned to its node by node affinity when the pod is made. */
  pinnedToNode?: boolean;
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
  'pinnedToNode',
  'startedAt',
  'health',
] as const;

/** A workload's pods are spawned one after another: each reuses the shape before it while it fits. */
let lastShape: PodShape | undefined;

/** Shapes more than one pod has: only these are worth a JSON template. */
const sharedShapes = new WeakSet<PodShape>();

function shapeOf(input: SpawnInput): PodShape {
  const last = lastShape;
  if (last && SHAPE_FIELDS.every((field) => last[field] === input[field])) {
    sharedShapes.add(last);
    return last;
  }
  const { node: _node, hostIP: _hostIP, ...shape } = input;
  lastShape = Object.freeze(shape);
  return lastShape;
}

/** Name, node, host IP, pod IP ('' on the host network), uid, then the container ids. */
const FIRST_CONTAINER_ID = 5;

/** A spawned pod is its shape's pod with its own name, node, addresses and ids (see sim/compact.ts). */
const spawnedPod: CompactKind<SpawnedRow> = {
  shape: (row) => (sharedShapes.has(row.shape) ? row.shape : undefined),
  values(row) {
    const { spec } = row.shape;
    const containers = spec.containers.length + (spec.initContainers?.length ?? 0);
    const values: Value[] = [row.name, row.node, row.hostIP, row.podIP ?? '', seededUuid(row, ID_SALT.uid)];
    for (let i = 0; i < containers; i++) values.push(seededHex(row, ID_SALT.container, 64, i));
    return values;
  },
  makeWith({ shape }, values) {
    const text = (index: number) => values[index] as string;
    return makePod({
      namespace: shape.namespace,
      name: text(0),
      uid: text(4),
      generateName: shape.prefix,
      labels: shape.labels,
      ...(shape.annotations ? { annotations: shape.annotations } : {}),
      ownerReferences: shape.ownerReferences,
      spec: shape.pinnedToNode ? daemonPodSpec(shape.spec, text(1)) : shape.spec,
      node: text(1),
      hostIP: text(2),
      ...(shape.spec.hostNetwork ? {} : { podIP: text(3) }),
      startedAt: shape.startedAt,
      containerIds: values.slice(FIRST_CONTAINER_ID) as string[],
      health: shape.health,
    });
  },
};

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
