import { type Container, deepFreeze, type KubeObject, type PodSpec, type Toleration } from '../../objects.ts';
import { controllerRef } from './meta.ts';

/** What a workload's pods look like; everything else gets the API server's defaults. */
export interface TemplateInput {
  labels: Record<string, string>;
  annotations?: Record<string, string>;
  containers: Container[];
  initContainers?: Container[];
  hostNetwork?: boolean;
  tolerations?: Toleration[];
  serviceAccountName?: string;
  priorityClassName?: string;
  /** Any further pod spec fields (volumes, affinity, securityContext...). */
  extraSpec?: Record<string, unknown>;
}

export interface Counts {
  /** Pods that exist. */
  current: number;
  ready: number;
}

const NOT_READY: Toleration = {
  key: 'node.kubernetes.io/not-ready',
  operator: 'Exists',
  effect: 'NoExecute',
};
const UNREACHABLE: Toleration = {
  key: 'node.kubernetes.io/unreachable',
  operator: 'Exists',
  effect: 'NoExecute',
};

/** Tolerations the DefaultTolerationSeconds admission plugin adds to every pod without them. */
/** objects.ts's Toleration plus the field the admission plugin sets. */
type TimedToleration = Toleration & { tolerationSeconds?: number };

const ADMISSION_TOLERATIONS: TimedToleration[] = [
  { ...NOT_READY, tolerationSeconds: 300 },
  { ...UNREACHABLE, tolerationSeconds: 300 },
];

/** Tolerations the DaemonSet controller adds to its pods. */
function daemonSetTolerations(hostNetwork: boolean): Toleration[] {
  return [
    NOT_READY,
    UNREACHABLE,
    { key: 'node.kubernetes.io/disk-pressure', operator: 'Exists', effect: 'NoSchedule' },
    { key: 'node.kubernetes.io/memory-pressure', operator: 'Exists', effect: 'NoSchedule' },
    { key: 'node.kubernetes.io/pid-pressure', operator: 'Exists', effect: 'NoSchedule' },
    { key: 'node.kubernetes.io/unschedulable', operator: 'Exists', effect: 'NoSchedule' },
    ...(hostNetwork
      ? [
          {
            key: 'node.kubernetes.io/network-unavailable',
            operator: 'Exists' as const,
            effect: 'NoSchedule' as const,
          },
        ]
      : []),
  ];
}

/** The template's pod spec, defaulted as kube-apiserver stores it. */
export function templateSpec(input: TemplateInput): PodSpec {
  const serviceAccount = input.serviceAccountName ?? 'default';
  return {
    ...(input.initContainers ? { initContainers: input.initContainers } : {}),
    containers: input.containers.map((c) => ({
      imagePullPolicy: 'IfNotPresent',
      terminationMessagePath: '/dev/termination-log',
      terminationMessagePolicy: 'File',
      ...c,
    })),
    dnsPolicy: input.hostNetwork ? 'ClusterFirstWithHostNet' : 'ClusterFirst',
    enableServiceLinks: true,
    ...(input.hostNetwork ? { hostNetwork: true } : {}),
    ...(input.priorityClassName ? { priorityClassName: input.priorityClassName } : {}),
    restartPolicy: 'Always',
    schedulerName: 'default-scheduler',
    securityContext: {},
    serviceAccount,
    serviceAccountName: serviceAccount,
    terminationGracePeriodSeconds: 30,
    ...(input.tolerations ? { tolerations: input.tolerations } : {}),
    ...input.extraSpec,
  };
}

/** A pod's spec as its controller creates it: the template's plus admission-added tolerations. */
export function podSpecOf(template: PodSpec, owner: 'ReplicaSet' | 'DaemonSet'): PodSpec {
  const own = template.tolerations ?? [];
  const added =
    owner === 'DaemonSet' ? daemonSetTolerations(template.hostNetwork === true) : ADMISSION_TOLERATIONS;
  const priority =
    template.priorityClassName === 'system-node-critical'
      ? 2000001000
      : template.priorityClassName === 'system-cluster-critical'
        ? 2000000000
        : 0;
  return deepFreeze({
    ...template,
    preemptionPolicy: 'PreemptLowerPriority',
    priority,
    tolerations: [...own, ...added],
  });
}

interface WorkloadMeta {
  name: string;
  namespace: string;
  uid: string;
  createdAt: string;
  labels: Record<string, string>;
}

export function makeDeployment(
  meta: WorkloadMeta,
  replicas: number,
  template: TemplateInput,
  spec: PodSpec,
  counts: Counts,
): KubeObject {
  const times = { lastTransitionTime: meta.createdAt, lastUpdateTime: meta.createdAt };
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: {
      name: meta.name,
      namespace: meta.namespace,
      uid: meta.uid,
      generation: 1,
      creationTimestamp: meta.createdAt,
      labels: meta.labels,
      annotations: { 'deployment.kubernetes.io/revision': '1' },
    },
    spec: {
      replicas,
      selector: { matchLabels: template.labels },
      template: {
        metadata: {
          labels: template.labels,
          ...(template.annotations ? { annotations: template.annotations } : {}),
        },
        spec,
      },
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } },
      revisionHistoryLimit: 10,
      progressDeadlineSeconds: 600,
    },
    status: {
      observedGeneration: 1,
      replicas: counts.current,
      updatedReplicas: counts.current,
      readyReplicas: counts.ready,
      availableReplicas: counts.ready,
      ...(counts.ready < replicas ? { unavailableReplicas: replicas - counts.ready } : {}),
      conditions: [
        counts.ready >= replicas
          ? {
              type: 'Available',
              status: 'True',
              reason: 'MinimumReplicasAvailable',
              message: 'Deployment has minimum availability.',
              ...times,
            }
          : {
              type: 'Available',
              status: 'False',
              reason: 'MinimumReplicasUnavailable',
              message: 'Deployment does not have minimum availability.',
              ...times,
            },
        {
          type: 'Progressing',
          status: 'True',
          reason: 'NewReplicaSetAvailable',
          message: `ReplicaSet "${meta.name}" has successfully progressed.`,
          ...times,
        },
      ],
    },
  };
}

export function makeReplicaSet(
  deployment: KubeObject,
  meta: WorkloadMeta & { hash: string },
  template: TemplateInput,
  spec: PodSpec,
  counts: Counts,
): KubeObject {
  const replicas = (deployment.spec as { replicas: number }).replicas;
  const podLabels = { ...template.labels, 'pod-template-hash': meta.hash };
  return {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: {
      name: meta.name,
      namespace: meta.namespace,
      uid: meta.uid,
      generation: 1,
      creationTimestamp: meta.createdAt,
      labels: podLabels,
      annotations: {
        'deployment.kubernetes.io/desired-replicas': String(replicas),
        'deployment.kubernetes.io/max-replicas': String(replicas + Math.ceil(replicas / 4)),
        'deployment.kubernetes.io/revision': '1',
      },
      ownerReferences: [controllerRef(deployment)],
    },
    spec: {
      replicas,
      selector: { matchLabels: podLabels },
      template: { metadata: { labels: podLabels }, spec },
    },
    status: {
      observedGeneration: 1,
      replicas: counts.current,
      fullyLabeledReplicas: counts.current,
      readyReplicas: counts.ready,
      availableReplicas: counts.ready,
    },
  };
}

export function makeDaemonSet(
  meta: WorkloadMeta,
  template: TemplateInput,
  spec: PodSpec,
  counts: Counts,
): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: {
      name: meta.name,
      namespace: meta.namespace,
      uid: meta.uid,
      generation: 1,
      creationTimestamp: meta.createdAt,
      labels: meta.labels,
      annotations: { 'deprecated.daemonset.template.generation': '1' },
    },
    spec: {
      selector: { matchLabels: template.labels },
      template: {
        metadata: {
          labels: template.labels,
          ...(template.annotations ? { annotations: template.annotations } : {}),
        },
        spec,
      },
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 0, maxUnavailable: 1 } },
      revisionHistoryLimit: 10,
    },
    status: {
      currentNumberScheduled: counts.current,
      desiredNumberScheduled: counts.current,
      numberAvailable: counts.ready,
      numberMisscheduled: 0,
      numberReady: counts.ready,
      ...(counts.ready < counts.current ? { numberUnavailable: counts.current - counts.ready } : {}),
      observedGeneration: 1,
      updatedNumberScheduled: counts.current,
    },
  };
}

/** A DaemonSet pod's spec: pinned to its node by node affinity, as the DaemonSet controller does. */
export function daemonPodSpec(spec: PodSpec, node: string): PodSpec {
  return {
    ...spec,
    affinity: {
      nodeAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: {
          nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: [node] }] }],
        },
      },
    },
  };
}

/** A DaemonSet pod's labels: the template's plus the revision it was created from. */
export function daemonPodLabels(
  templateLabels: Record<string, string>,
  revisionHash: string,
  generation: number,
): Record<string, string> {
  return Object.freeze({
    ...templateLabels,
    'controller-revision-hash': revisionHash,
    'pod-template-generation': String(generation),
  });
}
