/**
 * The shapes of Kubernetes objects as the simulator stores them. Loose on purpose: the store
 * keeps whatever JSON a client sends, and only the fields the simulator reasons about are typed.
 */
export interface OwnerReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller?: boolean;
  blockOwnerDeletion?: boolean;
}

export interface ObjectMeta {
  name: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  generation?: number;
  creationTimestamp?: string;
  deletionTimestamp?: string;
  generateName?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  ownerReferences?: OwnerReference[];
  [key: string]: unknown;
}

export interface KubeObject {
  apiVersion: string;
  kind: string;
  metadata: ObjectMeta;
  [key: string]: unknown;
}

export interface Container {
  name: string;
  image?: string;
  [key: string]: unknown;
}

export interface Toleration {
  key?: string;
  operator?: 'Exists' | 'Equal';
  value?: string;
  effect?: 'NoSchedule' | 'PreferNoSchedule' | 'NoExecute';
}

export interface PodSpec {
  nodeName?: string;
  hostNetwork?: boolean;
  restartPolicy?: string;
  schedulerName?: string;
  serviceAccountName?: string;
  containers: Container[];
  initContainers?: Container[];
  tolerations?: Toleration[];
  [key: string]: unknown;
}

export interface PodStatus {
  phase?: 'Pending' | 'Running' | 'Succeeded' | 'Failed' | 'Unknown';
  podIP?: string;
  hostIP?: string;
  nominatedNodeName?: string;
  startTime?: string;
  conditions?: { type: string; status: 'True' | 'False' | 'Unknown'; [key: string]: unknown }[];
  containerStatuses?: {
    name: string;
    ready: boolean;
    restartCount: number;
    containerID?: string;
    [key: string]: unknown;
  }[];
  [key: string]: unknown;
}

export interface Pod extends KubeObject {
  spec: PodSpec;
  status?: PodStatus;
}

/** Deep-freezes an object so the store can share it between snapshots without copying. */
export function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

/** A mutable deep copy, for callers that build a new version of a stored object. */
export function clone<T>(value: T): T {
  return structuredClone(value) as T;
}
