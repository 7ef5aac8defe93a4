import { createHash } from 'node:crypto';
import {
  type Container,
  deepFreeze,
  type OwnerReference,
  type Pod,
  type PodSpec,
  type PodStatus,
} from '../../objects.ts';

/** How the pod's containers are doing. */
export type ContainerHealth =
  | { kind: 'ready' }
  /** Running, readiness not yet passed (a fresh replacement). */
  | { kind: 'starting' }
  /** Probes fail: not ready, restarted `restarts` times, now in CrashLoopBackOff. */
  | { kind: 'crash-looping'; restarts: number; lastStartedAt: string; lastFinishedAt: string };

export interface PodFacts {
  namespace: string;
  name: string;
  uid: string;
  generateName?: string;
  /** Shared, frozen: one object for every pod of a workload. */
  labels: Readonly<Record<string, string>>;
  annotations?: Readonly<Record<string, string>>;
  ownerReferences?: readonly OwnerReference[];
  /** The template's spec (shared, frozen); the pod adds only its node. */
  spec: PodSpec;
  node: string;
  hostIP: string;
  /** Omitted for hostNetwork pods, which take the node's address. */
  podIP?: string;
  /** When the pod was created and started (to the second). */
  startedAt: string;
  /** containerd ids, one per container then one per init container, in spec order. */
  containerIds: readonly string[];
  health: ContainerHealth;
}

const imageIds = new Map<string, string>();

/** The image id the kubelet reports, `<repository>@sha256:<digest>`; stable per image. */
function imageIdOf(image: string): string {
  let id = imageIds.get(image);
  if (!id) {
    const nameStart = image.lastIndexOf('/') + 1;
    const tagStart = image.slice(nameStart).search(/[:@]/);
    const repository = tagStart < 0 ? image : image.slice(0, nameStart + tagStart);
    const pinned = image.split('@sha256:')[1];
    id = `${repository}@sha256:${pinned ?? createHash('sha256').update(image).digest('hex')}`;
    imageIds.set(image, id);
  }
  return id;
}

/** What all pods with these containers share: the QoS class and the names `Ready` messages list. */
const containerFacts = new WeakMap<readonly Container[], { qosClass: string; names: string }>();

function factsOf(containers: readonly Container[]): { qosClass: string; names: string } {
  let found = containerFacts.get(containers);
  if (!found) {
    const resources = containers.map(
      (c) => c.resources as { requests?: object; limits?: object } | undefined,
    );
    found = {
      qosClass: resources.every((r) => !r?.requests && !r?.limits) ? 'BestEffort' : 'Burstable',
      names: containers.map((c) => c.name).join(' '),
    };
    containerFacts.set(containers, found);
  }
  return found;
}

const NO_LAST_STATE = Object.freeze({});
const sharedConditions = new Map<string, PodStatus['conditions']>();
const runningSince = new Map<string, object>();
const hostIPs = new Map<string, readonly object[]>();

/** A frozen value many pods share (a workload's pods start together, on few nodes), made once. */
function shared<T>(cache: Map<string, T>, key: string, make: () => T): T {
  let found = cache.get(key);
  if (found === undefined) {
    found = Object.freeze(make());
    cache.set(key, found);
  }
  return found;
}

function conditions(startedAt: string, ready: boolean, containerNames: string): PodStatus['conditions'] {
  return shared(sharedConditions, `${startedAt}|${ready}|${containerNames}`, () => {
    const status = ready ? ('True' as const) : ('False' as const);
    const notReady = ready
      ? {}
      : { reason: 'ContainersNotReady', message: `containers with unready status: [${containerNames}]` };
    return [
      { type: 'PodReadyToStartContainers', status: 'True' as const },
      { type: 'Initialized', status: 'True' as const },
      { type: 'Ready', status, ...notReady },
      { type: 'ContainersReady', status, ...notReady },
      { type: 'PodScheduled', status: 'True' as const },
    ].map((condition) => Object.freeze({ ...condition, lastProbeTime: null, lastTransitionTime: startedAt }));
  });
}

/*
 * This runs for every pod of a large cluster, so: object literals of a fixed shape, and each new
 * sub-object frozen as it is made. The store deep-freezes what it is given, but stops at frozen
 * objects, and freezing here costs a fraction of its generic walk.
 */
const { freeze } = Object;

function containerStatus(facts: PodFacts, container: Container, containerId: string, first: boolean) {
  const { health } = facts;
  const containerID = `containerd://${containerId}`;
  const image = container.image as string;
  if (health.kind === 'crash-looping' && first) {
    return deepFreeze({
      containerID,
      image,
      imageID: imageIdOf(image),
      name: container.name,
      ready: false,
      restartCount: health.restarts,
      started: false,
      state: {
        waiting: {
          reason: 'CrashLoopBackOff',
          message: `back-off 5m0s restarting failed container=${container.name} pod=${facts.name}_${facts.namespace}(${facts.uid})`,
        },
      },
      lastState: {
        terminated: {
          containerID,
          exitCode: 137,
          reason: 'Error',
          startedAt: health.lastStartedAt,
          finishedAt: health.lastFinishedAt,
        },
      },
    });
  }
  return freeze({
    containerID,
    image,
    imageID: imageIdOf(image),
    name: container.name,
    ready: health.kind === 'ready',
    restartCount: 0,
    started: true,
    state: shared(runningSince, facts.startedAt, () => ({ running: freeze({ startedAt: facts.startedAt }) })),
    lastState: NO_LAST_STATE,
  });
}

function initContainerStatus(container: Container, containerId: string, startedAt: string) {
  const containerID = `containerd://${containerId}`;
  const image = container.image as string;
  return {
    containerID,
    image,
    imageID: imageIdOf(image),
    name: container.name,
    ready: true,
    restartCount: 0,
    started: false,
    state: {
      terminated: { containerID, exitCode: 0, reason: 'Completed', startedAt, finishedAt: startedAt },
    },
    lastState: NO_LAST_STATE,
  };
}

/** A pod as the kubelet reports it once scheduled and started: phase Running, with its node and address. */
export function makePod(facts: PodFacts): Pod {
  const { spec, startedAt, containerIds } = facts;
  const podIP = spec.hostNetwork ? facts.hostIP : (facts.podIP as string);
  const { qosClass, names } = factsOf(spec.containers);
  const metadata: Pod['metadata'] = {
    name: facts.name,
    namespace: facts.namespace,
    uid: facts.uid,
    creationTimestamp: startedAt,
    labels: facts.labels,
  };
  if (facts.generateName) metadata.generateName = facts.generateName;
  if (facts.annotations) metadata.annotations = facts.annotations;
  // Frozen and shared by the workload's pods; the store never mutates it.
  if (facts.ownerReferences) metadata.ownerReferences = facts.ownerReferences as OwnerReference[];
  const status: PodStatus = {
    phase: 'Running',
    conditions: conditions(startedAt, facts.health.kind === 'ready', names),
    hostIP: facts.hostIP,
    hostIPs: shared(hostIPs, facts.hostIP, () => [Object.freeze({ ip: facts.hostIP })]),
    podIP,
    podIPs: freeze([freeze({ ip: podIP })]),
    startTime: startedAt,
    qosClass,
    containerStatuses: spec.containers.map((c, i) =>
      containerStatus(facts, c, containerIds[i] as string, i === 0),
    ),
  };
  const initContainers = spec.initContainers ?? [];
  if (initContainers.length > 0) {
    const offset = spec.containers.length;
    status.initContainerStatuses = freeze(
      initContainers.map((c, i) => initContainerStatus(c, containerIds[offset + i] as string, startedAt)),
    );
  }
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata,
    spec: freeze({ ...spec, nodeName: facts.node }),
    status: freeze(status),
  };
}

/** The same pod once its readiness probe passes (the kubelet's status update). */
export function withReady(pod: Pod, at: string): Pod {
  const status = pod.status ?? {};
  return {
    ...pod,
    status: {
      ...status,
      conditions: (status.conditions ?? []).map((c) =>
        c.type === 'Ready' || c.type === 'ContainersReady'
          ? { type: c.type, status: 'True' as const, lastProbeTime: null, lastTransitionTime: at }
          : c,
      ),
      containerStatuses: (status.containerStatuses ?? []).map((c) => ({ ...c, ready: true })),
    },
  };
}

export function isPodReady(pod: Pod): boolean {
  return pod.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') === true;
}
