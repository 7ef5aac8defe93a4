import type { KubeObject, Metadata } from '../cluster/types.ts';

/** The annotation the kubelet puts on a static pod's mirror in the API. */
const MIRROR_ANNOTATION = 'kubernetes.io/config.mirror';

/** The controller that owns a pod (its ReplicaSet, DaemonSet, StatefulSet, Job...). */
export interface PodOwner {
  /** e.g. `ReplicaSet`. */
  kind: string;
  /** The owner's name. */
  name: string;
  /** The owner's uid. */
  uid: string;
}

/** What a runbook needs of a pod; the rest of a 150,000-pod list is dropped as pages arrive. */
export interface PodFacts {
  /** The pod's namespace. */
  namespace: string;
  /** The pod's name. */
  name: string;
  /** What the actuator's eviction carries as its precondition. */
  uid: string;
  /** spec.nodeName; empty while unscheduled. */
  node: string;
  /** The pod's labels (exclusion selectors match them). */
  labels: Record<string, string>;
  /** status.startTime (creationTimestamp before the kubelet reports one), ISO text. */
  startedAt?: string;
  /** On the host's network: Cilium never manages it. */
  hostNetwork: boolean;
  /** Being deleted already: it will not need a restart. */
  terminating: boolean;
  /** A static pod's mirror: the kubelet, not the API, owns it. */
  mirror: boolean;
  /** The controller that recreates it when it goes. */
  owner?: PodOwner;
}

interface PodShape {
  metadata: Metadata & { deletionTimestamp?: string };
  spec?: { nodeName?: string; hostNetwork?: boolean };
  status?: { startTime?: string };
}

/**
 * A pod's facts, as a projection for `ctx.kube.list` (only these fields are kept of each page).
 *
 * @example
 * ```ts
 * const pods = await ctx.kube.list(RESOURCES.pods, { namespace: 'shop', project: podFacts });
 * const young = pods.filter((pod) => (ageSeconds(pod, ctx.now()) ?? 0) < 60);
 * ```
 */
export function podFacts(object: KubeObject): PodFacts {
  const { metadata, spec, status } = object as PodShape;
  const owners = metadata.ownerReferences ?? [];
  const controller = owners.find((ref) => ref.controller) ?? owners[0];
  const startedAt = status?.startTime ?? metadata.creationTimestamp;
  return {
    namespace: metadata.namespace ?? '',
    name: metadata.name,
    uid: metadata.uid,
    node: spec?.nodeName ?? '',
    labels: metadata.labels ?? {},
    ...(startedAt ? { startedAt } : {}),
    hostNetwork: spec?.hostNetwork === true,
    terminating: metadata.deletionTimestamp !== undefined,
    mirror: metadata.annotations?.[MIRROR_ANNOTATION] !== undefined || controller?.kind === 'Node',
    ...(controller ? { owner: { kind: controller.kind, name: controller.name, uid: controller.uid } } : {}),
  };
}

/**
 * `namespace/name`, as reports and kubectl name a pod.
 *
 * @example
 * ```ts
 * finding({ code: 'POD_NOT_READY', target: podKey(pod), message: `${podKey(pod)} is not ready` });
 * ```
 */
export function podKey(pod: { namespace: string; name: string }): string {
  return `${pod.namespace}/${pod.name}`;
}

/**
 * Seconds since the pod started, or undefined when it has not reported a start.
 *
 * @example
 * ```ts
 * const settled = pods.filter((pod) => (ageSeconds(pod, ctx.now()) ?? 0) >= ctx.limits.gracePeriodSeconds);
 * ```
 */
export function ageSeconds(pod: PodFacts, now: Date): number | undefined {
  if (!pod.startedAt) return undefined;
  const started = Date.parse(pod.startedAt);
  return Number.isNaN(started) ? undefined : Math.floor((now.getTime() - started) / 1000);
}
