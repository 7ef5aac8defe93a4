/**
 * The alternate representations kube-apiserver 1.33 serves: the meta.k8s.io/v1 Table that
 * `kubectl get` asks for (columns and cells as pkg/printers/internalversion/printers.go prints
 * them with Wide set, and the CRD additionalPrinterColumns for Cilium's resources),
 * PartialObjectMetadata(List), and the Accept negotiation that picks between them.
 */

import { goQuote, type LabelSelector, labelSelectorString } from '../../src/cluster/label-selector.ts';
import type { KubeObject, ObjectMeta } from '../objects.ts';
import { errors } from '../status.ts';

export type IncludeObject = 'None' | 'Metadata' | 'Object';

export interface TableColumnDefinition {
  name: string;
  type: string;
  format: string;
  description: string;
  priority: number;
}

export interface TableRowCondition {
  type: 'Completed';
  status: 'True';
  reason: string;
  message: string;
}

export interface TableRow {
  cells: unknown[];
  conditions?: TableRowCondition[];
  object: unknown;
}

export interface ListMeta {
  resourceVersion?: string;
  continue?: string;
  remainingItemCount?: number;
}

export interface Table {
  kind: 'Table';
  apiVersion: 'meta.k8s.io/v1';
  metadata: ListMeta;
  columnDefinitions: TableColumnDefinition[];
  rows: TableRow[];
}

export interface PartialObjectMetadata {
  kind: 'PartialObjectMetadata';
  apiVersion: 'meta.k8s.io/v1';
  metadata: ObjectMeta;
}

export interface PartialObjectMetadataList {
  kind: 'PartialObjectMetadataList';
  apiVersion: 'meta.k8s.io/v1';
  metadata: ListMeta;
  items: PartialObjectMetadata[];
}

export interface TableOptions {
  /** What each row's `object` carries; Metadata when the request names none. */
  includeObject?: IncludeObject;
  /** The instant ages are measured from. */
  now: Date;
  resourceVersion: string;
  continue?: string;
  remainingItemCount?: number;
}

// ---------------------------------------------------------------------------------------------
// Time formatting.

/** k8s.io/apimachinery/pkg/util/duration.HumanDuration: "45s", "5m3s", "3h2m", "12d", "2y3d". */
export function humanDuration(milliseconds: number): string {
  const seconds = Math.trunc(milliseconds / 1000);
  if (seconds < -1) return '<invalid>';
  if (seconds < 0) return '0s';
  if (seconds < 60 * 2) return `${seconds}s`;
  const minutes = Math.trunc(seconds / 60);
  if (minutes < 10) return seconds % 60 === 0 ? `${minutes}m` : `${minutes}m${seconds % 60}s`;
  if (minutes < 60 * 3) return `${minutes}m`;
  const hours = Math.trunc(minutes / 60);
  if (hours < 8) return minutes % 60 === 0 ? `${hours}h` : `${hours}h${minutes % 60}m`;
  if (hours < 48) return `${hours}h`;
  const days = Math.trunc(hours / 24);
  if (hours < 24 * 8) return hours % 24 === 0 ? `${days}d` : `${days}d${hours % 24}h`;
  if (hours < 24 * 365 * 2) return `${days}d`;
  const years = Math.trunc(days / 365);
  if (hours < 24 * 365 * 8) return days % 365 === 0 ? `${years}y` : `${years}y${days % 365}d`;
  return `${years}y`;
}

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/** A metav1.Time as milliseconds; undefined for the zero time (absent) and unparsable text. */
function timestamp(value: unknown): number | undefined {
  return typeof value === 'string' && RFC3339.test(value) ? Date.parse(value) : undefined;
}

/** translateTimestampSince: "<unknown>" for a zero time. */
function since(value: unknown, now: Date): string {
  const at = timestamp(value);
  return at === undefined ? '<unknown>' : humanDuration(now.getTime() - at);
}

// ---------------------------------------------------------------------------------------------
// Loose access to stored JSON.

type Json = Record<string, unknown>;

const rec = (value: unknown): Json => (value && typeof value === 'object' ? (value as Json) : {});
const arr = (value: unknown): Json[] => (Array.isArray(value) ? value.map(rec) : []);
const str = (value: unknown): string => (typeof value === 'string' ? value : '');
const int = (value: unknown): number => (typeof value === 'number' ? Math.trunc(value) : 0);

// ---------------------------------------------------------------------------------------------
// Column definitions. Descriptions are the Go SwaggerDoc strings the real columns carry.

const DOC = {
  name: 'Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names',
  creationTimestamp:
    'CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata',
  podIP:
    'podIP address allocated to the pod. Routable at least within the cluster. Empty if not yet allocated.',
  nodeName:
    'NodeName indicates in which node this pod is scheduled. If empty, this pod is a candidate for scheduling by the scheduler defined in schedulerName. Once this field is set, the kubelet for this node becomes responsible for the lifecycle of this pod. This field should not be used to express a desire for the pod to be scheduled on a specific node. https://kubernetes.io/docs/concepts/scheduling-eviction/assign-pod-node/#nodename',
  nominatedNodeName:
    'nominatedNodeName is set only when this pod preempts other pods on the node, but it cannot be scheduled right away as preemption victims receive their graceful termination periods. This field does not guarantee that the pod will be scheduled on this node. Scheduler may decide to place the pod elsewhere if other nodes become available sooner. Scheduler may also decide to give the resources on this node to a higher priority pod that is created after preemption. As a result, this field may be different than PodSpec.nodeName when the pod is scheduled.',
  readinessGates:
    'If specified, all readiness gates will be evaluated for pod readiness. A pod is ready when all its containers are ready AND all conditions specified in the readiness gates have status equal to "True" More info: https://git.k8s.io/enhancements/keps/sig-network/580-pod-readiness-gates',
  nodeSelector:
    "NodeSelector is a selector which must be true for the pod to fit on a node. Selector which must match a node's labels for the pod to be scheduled on that node. More info: https://kubernetes.io/docs/concepts/configuration/assign-pod-node/",
  nodeAddresses:
    "List of addresses reachable to the node. Queried from cloud provider, if available. More info: https://kubernetes.io/docs/reference/node/node-status/#addresses Note: This field is declared as mergeable, but the merge key is not sufficiently unique, which can cause data corruption when it is merged. Callers should instead use a full-replacement patch. See https://pr.k8s.io/79391 for an example. Consumers should assume that addresses can change during the lifetime of a Node. However, there are some exceptions where this may not be possible, such as Pods that inherit a Node's address in its own status or consumers of the downward API (status.hostIP).",
  containers: 'Names of each container in the template.',
  images: 'Images referenced by each container in the template.',
};

function column(
  name: string,
  type: string,
  description: string,
  priority = 0,
  format = '',
): TableColumnDefinition {
  return { name, type, format, description, priority };
}

const NAME = column('Name', 'string', DOC.name, 0, 'name');
const AGE = column('Age', 'string', DOC.creationTimestamp);

interface PrintedRow {
  cells: unknown[];
  conditions?: TableRowCondition[];
}

interface Printer {
  columns: TableColumnDefinition[];
  print(object: KubeObject, now: Date): PrintedRow;
}

// ---------------------------------------------------------------------------------------------
// Shared cell formatting.

/** layoutContainerCells: names and images, comma-joined. */
function containerCells(template: unknown): [string, string] {
  const containers = arr(rec(rec(template).spec).containers);
  return [containers.map((c) => str(c.name)).join(','), containers.map((c) => str(c.image)).join(',')];
}

/** metav1.FormatLabelSelector: "<none>" when empty, "<error>" when it cannot convert. */
function formatLabelSelector(selector: unknown): string {
  const text = labelSelectorString(selector as LabelSelector | undefined);
  return text === undefined ? '<error>' : text || '<none>';
}

/** labels.FormatLabels: sorted key=value pairs, or "<none>". */
function formatLabels(map: unknown): string {
  const pairs = Object.entries(rec(map))
    .map(([key, value]) => `${key}=${str(value)}`)
    .sort();
  return pairs.length > 0 ? pairs.join(',') : '<none>';
}

/** intstr.IntOrString.String(). */
function intOrString(value: unknown): string {
  return typeof value === 'number' ? String(value) : str(value);
}

// ---------------------------------------------------------------------------------------------
// Pods: printPod.

const POD_SUCCEEDED: TableRowCondition[] = [
  { type: 'Completed', status: 'True', reason: 'Succeeded', message: 'The pod has completed successfully.' },
];
const POD_FAILED: TableRowCondition[] = [
  { type: 'Completed', status: 'True', reason: 'Failed', message: 'The pod failed.' },
];

/** When the container last terminated, for "N (5m ago)" restarts; -Infinity is Go's zero time. */
function lastTerminated(status: Json): number {
  return timestamp(rec(rec(status.lastState).terminated).finishedAt) ?? Number.NEGATIVE_INFINITY;
}

function terminatedReason(terminated: Json, prefix: string): string {
  if (str(terminated.reason)) return `${prefix}${str(terminated.reason)}`;
  const signal = int(terminated.signal);
  return signal !== 0 ? `${prefix}Signal:${signal}` : `${prefix}ExitCode:${int(terminated.exitCode)}`;
}

function firstConditionStatus(conditions: Json[], type: string): string | undefined {
  const found = conditions.find((condition) => condition.type === type);
  return found ? str(found.status) : undefined;
}

function printPod(pod: KubeObject, now: Date): PrintedRow {
  const spec = rec(pod.spec);
  const status = rec(pod.status);
  const phase = str(status.phase);
  const conditions = arr(status.conditions);
  let reason = str(status.reason) || phase;
  if (conditions.some((c) => c.type === 'PodScheduled' && c.reason === 'SchedulingGated'))
    reason = 'SchedulingGated';

  const initContainers = arr(spec.initContainers);
  // Restartable init containers are sidecars: they count towards READY and their restarts show.
  const sidecars = new Set(
    initContainers.filter((c) => c.restartPolicy === 'Always').map((c) => str(c.name)),
  );
  const total = arr(spec.containers).length + sidecars.size;
  let ready = 0;
  let restarts = 0;
  let sidecarRestarts = 0;
  let lastRestart = Number.NEGATIVE_INFINITY;
  let lastSidecarRestart = Number.NEGATIVE_INFINITY;
  let initializing = false;

  const initStatuses = arr(status.initContainerStatuses);
  for (const [i, container] of initStatuses.entries()) {
    const isSidecar = sidecars.has(str(container.name));
    restarts += int(container.restartCount);
    lastRestart = Math.max(lastRestart, lastTerminated(container));
    if (isSidecar) {
      sidecarRestarts += int(container.restartCount);
      lastSidecarRestart = Math.max(lastSidecarRestart, lastTerminated(container));
    }
    const state = rec(container.state);
    const terminated = state.terminated ? rec(state.terminated) : undefined;
    const waitingReason = str(rec(state.waiting).reason);
    if (terminated && int(terminated.exitCode) === 0) continue;
    if (isSidecar && container.started === true) {
      if (container.ready === true) ready++;
      continue;
    }
    if (terminated) reason = terminatedReason(terminated, 'Init:');
    else if (waitingReason && waitingReason !== 'PodInitializing') reason = `Init:${waitingReason}`;
    else reason = `Init:${i}/${initContainers.length}`;
    initializing = true;
    break;
  }

  if (!initializing || firstConditionStatus(conditions, 'Initialized') === 'True') {
    restarts = sidecarRestarts;
    lastRestart = lastSidecarRestart;
    let hasRunning = false;
    for (const container of arr(status.containerStatuses).reverse()) {
      restarts += int(container.restartCount);
      lastRestart = Math.max(lastRestart, lastTerminated(container));
      const state = rec(container.state);
      const waitingReason = str(rec(state.waiting).reason);
      const terminated = state.terminated ? rec(state.terminated) : undefined;
      if (waitingReason) reason = waitingReason;
      else if (terminated) reason = terminatedReason(terminated, '');
      else if (container.ready === true && state.running) {
        hasRunning = true;
        ready++;
      }
    }
    // A completed container beside a running one: the pod is still up.
    if (reason === 'Completed' && hasRunning) {
      reason = conditions.some((c) => c.type === 'Ready' && c.status === 'True') ? 'Running' : 'NotReady';
    }
  }

  const deleting = pod.metadata.deletionTimestamp !== undefined;
  if (deleting && status.reason === 'NodeLost') reason = 'Unknown';
  else if (deleting && phase !== 'Succeeded' && phase !== 'Failed') reason = 'Terminating';

  const restartsCell =
    restarts !== 0 && lastRestart !== Number.NEGATIVE_INFINITY
      ? `${restarts} (${humanDuration(now.getTime() - lastRestart)} ago)`
      : String(restarts);

  const gates = arr(spec.readinessGates);
  const passedGates = gates.filter(
    (gate) => firstConditionStatus(conditions, str(gate.conditionType)) === 'True',
  );
  // The internal type keeps only podIPs; conversion fills it from podIP when absent.
  const podIP = str(arr(status.podIPs)[0]?.ip) || str(status.podIP);

  return {
    cells: [
      pod.metadata.name,
      `${ready}/${total}`,
      reason,
      restartsCell,
      since(pod.metadata.creationTimestamp, now),
      podIP || '<none>',
      str(spec.nodeName) || '<none>',
      str(status.nominatedNodeName) || '<none>',
      gates.length > 0 ? `${passedGates.length}/${gates.length}` : '<none>',
    ],
    ...(phase === 'Succeeded'
      ? { conditions: POD_SUCCEEDED }
      : phase === 'Failed'
        ? { conditions: POD_FAILED }
        : {}),
  };
}

// ---------------------------------------------------------------------------------------------
// Nodes: printNode.

function nodeAddress(node: KubeObject, type: string): string {
  const found = arr(rec(node.status).addresses).find((address) => address.type === type);
  return found ? str(found.address) : '<none>';
}

/** findNodeRoles: node-role.kubernetes.io/<role> keys and kubernetes.io/role values, sorted. */
function nodeRoles(node: KubeObject): string {
  const roles = new Set<string>();
  for (const [key, value] of Object.entries(node.metadata.labels ?? {})) {
    if (key.startsWith('node-role.kubernetes.io/')) {
      const role = key.slice('node-role.kubernetes.io/'.length);
      if (role) roles.add(role);
    } else if (key === 'kubernetes.io/role' && value) roles.add(value);
  }
  return [...roles].sort().join(',') || '<none>';
}

function printNode(node: KubeObject, now: Date): PrintedRow {
  const status = rec(node.status);
  const info = rec(status.nodeInfo);
  // The printer indexes conditions by type, so a repeated type counts by its last entry.
  const ready = arr(status.conditions).findLast((condition) => condition.type === 'Ready');
  const states = [ready === undefined ? 'Unknown' : ready.status === 'True' ? 'Ready' : 'NotReady'];
  if (rec(node.spec).unschedulable === true) states.push('SchedulingDisabled');
  return {
    cells: [
      node.metadata.name,
      states.join(','),
      nodeRoles(node),
      since(node.metadata.creationTimestamp, now),
      str(info.kubeletVersion),
      nodeAddress(node, 'InternalIP'),
      nodeAddress(node, 'ExternalIP'),
      str(info.osImage) || '<unknown>',
      str(info.kernelVersion) || '<unknown>',
      str(info.containerRuntimeVersion) || '<unknown>',
    ],
  };
}

// ---------------------------------------------------------------------------------------------
// Events: printEvent.

function printEvent(event: KubeObject, now: Date): PrintedRow {
  const series = event.series === undefined ? undefined : rec(event.series);
  const first =
    timestamp(event.firstTimestamp) === undefined
      ? since(event.eventTime, now)
      : since(event.firstTimestamp, now);
  let last = timestamp(event.lastTimestamp) === undefined ? first : since(event.lastTimestamp, now);
  let count = int(event.count);
  if (series) {
    last = since(series.lastObservedTime, now);
    count = int(series.count);
  } else if (count === 0) {
    // Events from events.k8s.io/v1 are singletons without a count.
    count = 1;
  }
  const involved = rec(event.involvedObject);
  const kind = str(involved.kind).toLowerCase();
  const source = rec(event.source);
  const component = str(source.component) || str(event.reportingComponent);
  const instance = str(source.host) || str(event.reportingInstance);
  return {
    cells: [
      last,
      str(event.type),
      str(event.reason),
      str(involved.name) ? `${kind}/${str(involved.name)}` : kind,
      str(involved.fieldPath),
      instance ? `${component}, ${instance}` : component,
      str(event.message).trim(),
      first,
      count,
      event.metadata.name,
    ],
  };
}

// ---------------------------------------------------------------------------------------------
// Workloads and the rest.

function printDaemonSet(ds: KubeObject, now: Date): PrintedRow {
  const spec = rec(ds.spec);
  const status = rec(ds.status);
  const template = rec(spec.template);
  return {
    cells: [
      ds.metadata.name,
      int(status.desiredNumberScheduled),
      int(status.currentNumberScheduled),
      int(status.numberReady),
      int(status.updatedNumberScheduled),
      int(status.numberAvailable),
      formatLabels(rec(template.spec).nodeSelector),
      since(ds.metadata.creationTimestamp, now),
      ...containerCells(template),
      formatLabelSelector(spec.selector),
    ],
  };
}

/** The API defaults an absent replicas to 1 before the printer sees it. */
const desiredReplicas = (spec: Json) => (typeof spec.replicas === 'number' ? Math.trunc(spec.replicas) : 1);

function printReplicaSet(rs: KubeObject, now: Date): PrintedRow {
  const spec = rec(rs.spec);
  const status = rec(rs.status);
  return {
    cells: [
      rs.metadata.name,
      desiredReplicas(spec),
      int(status.replicas),
      int(status.readyReplicas),
      since(rs.metadata.creationTimestamp, now),
      ...containerCells(spec.template),
      formatLabelSelector(spec.selector),
    ],
  };
}

function printDeployment(deployment: KubeObject, now: Date): PrintedRow {
  const spec = rec(deployment.spec);
  const status = rec(deployment.status);
  const selector = labelSelectorString(spec.selector as LabelSelector | undefined);
  return {
    cells: [
      deployment.metadata.name,
      `${int(status.readyReplicas)}/${desiredReplicas(spec)}`,
      int(status.updatedReplicas),
      int(status.availableReplicas),
      since(deployment.metadata.creationTimestamp, now),
      ...containerCells(spec.template),
      selector ?? '<invalid>',
    ],
  };
}

function printPodDisruptionBudget(pdb: KubeObject, now: Date): PrintedRow {
  const spec = rec(pdb.spec);
  return {
    cells: [
      pdb.metadata.name,
      spec.minAvailable === undefined ? 'N/A' : intOrString(spec.minAvailable),
      spec.maxUnavailable === undefined ? 'N/A' : intOrString(spec.maxUnavailable),
      int(rec(pdb.status).disruptionsAllowed),
      since(pdb.metadata.creationTimestamp, now),
    ],
  };
}

const PRINTERS: Record<string, Printer> = {
  pods: {
    columns: [
      NAME,
      column('Ready', 'string', 'The aggregate readiness state of this pod for accepting traffic.'),
      column('Status', 'string', 'The aggregate status of the containers in this pod.'),
      column(
        'Restarts',
        'string',
        'The number of times the containers in this pod have been restarted and when the last container in this pod has restarted.',
      ),
      AGE,
      column('IP', 'string', DOC.podIP, 1),
      column('Node', 'string', DOC.nodeName, 1),
      column('Nominated Node', 'string', DOC.nominatedNodeName, 1),
      column('Readiness Gates', 'string', DOC.readinessGates, 1),
    ],
    print: printPod,
  },
  nodes: {
    columns: [
      NAME,
      column('Status', 'string', 'The status of the node'),
      column('Roles', 'string', 'The roles of the node'),
      AGE,
      column('Version', 'string', 'Kubelet Version reported by the node.'),
      column('Internal-IP', 'string', DOC.nodeAddresses, 1),
      column('External-IP', 'string', DOC.nodeAddresses, 1),
      column(
        'OS-Image',
        'string',
        'OS Image reported by the node from /etc/os-release (e.g. Debian GNU/Linux 7 (wheezy)).',
        1,
      ),
      column(
        'Kernel-Version',
        'string',
        "Kernel Version reported by the node from 'uname -r' (e.g. 3.16.0-0.bpo.4-amd64).",
        1,
      ),
      column(
        'Container-Runtime',
        'string',
        'ContainerRuntime Version reported by the node through runtime remote API (e.g. containerd://1.4.2).',
        1,
      ),
    ],
    print: printNode,
  },
  namespaces: {
    columns: [NAME, column('Status', 'string', 'The status of the namespace'), AGE],
    print: (ns, now) => ({
      cells: [ns.metadata.name, str(rec(ns.status).phase), since(ns.metadata.creationTimestamp, now)],
    }),
  },
  configmaps: {
    columns: [
      NAME,
      column(
        'Data',
        'string',
        "Data contains the configuration data. Each key must consist of alphanumeric characters, '-', '_' or '.'. Values with non-UTF-8 byte sequences must use the BinaryData field. The keys stored in Data must not overlap with the keys in the BinaryData field, this is enforced during validation process.",
      ),
      AGE,
    ],
    print: (cm, now) => ({
      cells: [
        cm.metadata.name,
        Object.keys(rec(cm.data)).length + Object.keys(rec(cm.binaryData)).length,
        since(cm.metadata.creationTimestamp, now),
      ],
    }),
  },
  serviceaccounts: {
    columns: [
      NAME,
      column(
        'Secrets',
        'string',
        'Secrets is a list of the secrets in the same namespace that pods running using this ServiceAccount are allowed to use. Pods are only limited to this list if this service account has a "kubernetes.io/enforce-mountable-secrets" annotation set to "true". The "kubernetes.io/enforce-mountable-secrets" annotation is deprecated since v1.32. Prefer separate namespaces to isolate access to mounted secrets. This field should not be used to find auto-generated service account token secrets for use outside of pods. Instead, tokens can be requested directly using the TokenRequest API, or service account token secrets can be manually created. More info: https://kubernetes.io/docs/concepts/configuration/secret',
      ),
      AGE,
    ],
    print: (sa, now) => ({
      cells: [sa.metadata.name, arr(sa.secrets).length, since(sa.metadata.creationTimestamp, now)],
    }),
  },
  events: {
    columns: [
      column(
        'Last Seen',
        'string',
        'The time at which the most recent occurrence of this event was recorded.',
      ),
      column(
        'Type',
        'string',
        'Type of this event (Normal, Warning), new types could be added in the future',
      ),
      column(
        'Reason',
        'string',
        "This should be a short, machine understandable string that gives the reason for the transition into the object's current status.",
      ),
      column('Object', 'string', 'The object that this event is about.'),
      column(
        'Subobject',
        'string',
        'If referring to a piece of an object instead of an entire object, this string should contain a valid JSON/Go field access statement, such as desiredState.manifest.containers[2]. For example, if the object reference is to a container within a pod, this would take on a value like: "spec.containers{name}" (where "name" refers to the name of the container that triggered the event) or if no container name is specified "spec.containers[2]" (container with index 2 in this pod). This syntax is chosen only to have some well-defined way of referencing a part of an object.',
        1,
      ),
      column(
        'Source',
        'string',
        'The component reporting this event. Should be a short machine understandable string.',
        1,
      ),
      column('Message', 'string', 'A human-readable description of the status of this operation.'),
      column(
        'First Seen',
        'string',
        'The time at which the event was first recorded. (Time of server receipt is in TypeMeta.)',
        1,
      ),
      column('Count', 'string', 'The number of times this event has occurred.', 1),
      column('Name', 'string', DOC.name, 1, 'name'),
    ],
    print: printEvent,
  },
  daemonsets: {
    columns: [
      NAME,
      column(
        'Desired',
        'integer',
        'The total number of nodes that should be running the daemon pod (including nodes correctly running the daemon pod). More info: https://kubernetes.io/docs/concepts/workloads/controllers/daemonset/',
      ),
      column(
        'Current',
        'integer',
        'The number of nodes that are running at least 1 daemon pod and are supposed to run the daemon pod. More info: https://kubernetes.io/docs/concepts/workloads/controllers/daemonset/',
      ),
      column(
        'Ready',
        'integer',
        'numberReady is the number of nodes that should be running the daemon pod and have one or more of the daemon pod running with a Ready Condition.',
      ),
      column('Up-to-date', 'integer', 'The total number of nodes that are running updated daemon pod'),
      column(
        'Available',
        'integer',
        'The number of nodes that should be running the daemon pod and have one or more of the daemon pod running and available (ready for at least spec.minReadySeconds)',
      ),
      column('Node Selector', 'string', DOC.nodeSelector),
      AGE,
      column('Containers', 'string', DOC.containers, 1),
      column('Images', 'string', DOC.images, 1),
      column(
        'Selector',
        'string',
        "A label query over pods that are managed by the daemon set. Must match in order to be controlled. It must match the pod template's labels. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors",
        1,
      ),
    ],
    print: printDaemonSet,
  },
  replicasets: {
    columns: [
      NAME,
      column(
        'Desired',
        'integer',
        'Replicas is the number of desired pods. This is a pointer to distinguish between explicit zero and unspecified. Defaults to 1. More info: https://kubernetes.io/docs/concepts/workloads/controllers/replicaset',
      ),
      column(
        'Current',
        'integer',
        'Replicas is the most recently observed number of non-terminating pods. More info: https://kubernetes.io/docs/concepts/workloads/controllers/replicaset',
      ),
      column(
        'Ready',
        'integer',
        'The number of non-terminating pods targeted by this ReplicaSet with a Ready Condition.',
      ),
      AGE,
      column('Containers', 'string', DOC.containers, 1),
      column('Images', 'string', DOC.images, 1),
      column(
        'Selector',
        'string',
        "Selector is a label query over pods that should match the replica count. Label keys and values that must match in order to be controlled by this replica set. It must match the pod template's labels. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors",
        1,
      ),
    ],
    print: printReplicaSet,
  },
  deployments: {
    columns: [
      NAME,
      column('Ready', 'string', 'Number of the pod with ready state'),
      column(
        'Up-to-date',
        'string',
        'Total number of non-terminating pods targeted by this deployment that have the desired template spec.',
      ),
      column(
        'Available',
        'string',
        'Total number of available non-terminating pods (ready for at least minReadySeconds) targeted by this deployment.',
      ),
      AGE,
      column('Containers', 'string', DOC.containers, 1),
      column('Images', 'string', DOC.images, 1),
      column(
        'Selector',
        'string',
        "Label selector for pods. Existing ReplicaSets whose pods are selected by this will be the ones affected by this deployment. It must match the pod template's labels.",
        1,
      ),
    ],
    print: printDeployment,
  },
  poddisruptionbudgets: {
    columns: [
      NAME,
      column('Min Available', 'string', 'The minimum number of pods that must be available.'),
      column('Max Unavailable', 'string', 'The maximum number of pods that may be unavailable.'),
      column(
        'Allowed Disruptions',
        'integer',
        'Calculated number of pods that may be disrupted at this time.',
      ),
      AGE,
    ],
    print: printPodDisruptionBudget,
  },
  networkpolicies: {
    columns: [
      NAME,
      column(
        'Pod-Selector',
        'string',
        'podSelector selects the pods to which this NetworkPolicy object applies. The array of ingress rules is applied to any pods selected by this field. Multiple network policies can select the same set of pods. In this case, the ingress rules for each are combined additively. This field is NOT optional and follows standard label selector semantics. An empty podSelector matches all pods in this namespace.',
      ),
      AGE,
    ],
    print: (policy, now) => ({
      cells: [
        policy.metadata.name,
        formatLabelSelector(rec(policy.spec).podSelector),
        since(policy.metadata.creationTimestamp, now),
      ],
    }),
  },
};

// ---------------------------------------------------------------------------------------------
// Custom resources: the apiextensions tableconvertor over a CRD's additionalPrinterColumns.

type ColumnType = 'string' | 'integer' | 'number' | 'boolean' | 'date';

interface PrinterColumn {
  name: string;
  type: ColumnType;
  jsonPath: string;
  description: string;
  priority?: number;
}

/** As Cilium's CRDs declare them (pkg/k8s/apis/cilium.io/v2/types.go printcolumn markers). */
const CRD_PRINTER_COLUMNS: Record<string, PrinterColumn[]> = {
  ciliumendpoints: [
    {
      name: 'Security Identity',
      type: 'integer',
      jsonPath: '.status.identity.id',
      description: 'Security Identity',
    },
    {
      name: 'Ingress Enforcement',
      type: 'string',
      jsonPath: '.status.policy.ingress.state',
      description: 'Ingress enforcement in the endpoint',
      priority: 1,
    },
    {
      name: 'Egress Enforcement',
      type: 'string',
      jsonPath: '.status.policy.egress.state',
      description: 'Egress enforcement in the endpoint',
      priority: 1,
    },
    {
      name: 'Visibility Policy',
      type: 'string',
      jsonPath: '.status.visibility-policy-status',
      description: 'Status of visibility policy in the endpoint',
      priority: 1,
    },
    {
      name: 'Endpoint State',
      type: 'string',
      jsonPath: '.status.state',
      description: 'Endpoint current state',
    },
    {
      name: 'IPv4',
      type: 'string',
      jsonPath: '.status.networking.addressing[0].ipv4',
      description: 'Endpoint IPv4 address',
    },
    {
      name: 'IPv6',
      type: 'string',
      jsonPath: '.status.networking.addressing[0].ipv6',
      description: 'Endpoint IPv6 address',
    },
  ],
  ciliumnodes: [
    {
      name: 'CiliumInternalIP',
      type: 'string',
      jsonPath: '.spec.addresses[?(@.type=="CiliumInternalIP")].ip',
      description: 'Cilium internal IP for this node',
    },
    {
      name: 'InternalIP',
      type: 'string',
      jsonPath: '.spec.addresses[?(@.type=="InternalIP")].ip',
      description: 'IP of the node',
    },
    {
      name: 'Age',
      type: 'date',
      jsonPath: '.metadata.creationTimestamp',
      description: 'Time duration since creation of Ciliumnode',
    },
  ],
};

/** A CRD without columns gets this one (serveDefaultColumnsIfEmpty). */
const CRD_DEFAULT_COLUMNS: PrinterColumn[] = [
  { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp', description: DOC.creationTimestamp },
];

type PathStep = { field: string } | { index: number } | { where: string; equals: string };

/** The JSONPath subset printer columns use: `.a.b`, `[0]`, `[?(@.k=="v")]`, `\.` in keys. */
function parseJsonPath(path: string): PathStep[] {
  const steps: PathStep[] = [];
  const step = /^(?:\.((?:\\.|[^.[\\])+)|\[(\d+)\]|\[\?\(@\.([\w-]+)=="([^"]*)"\)\])/;
  for (let rest = path; rest.length > 0; ) {
    const match = step.exec(rest);
    if (!match) throw new Error(`unsupported printer column path ${path}`);
    if (match[1] !== undefined) steps.push({ field: match[1].replace(/\\\./g, '.') });
    else if (match[2] !== undefined) steps.push({ index: Number(match[2]) });
    else steps.push({ where: match[3] ?? '', equals: match[4] ?? '' });
    rest = rest.slice(match[0].length);
  }
  return steps;
}

/** Every value the path reaches; missing keys are skipped (AllowMissingKeys). */
function findResults(root: unknown, steps: PathStep[]): unknown[] {
  let current: unknown[] = [root];
  for (const step of steps) {
    current = current.flatMap((value): unknown[] => {
      if ('field' in step) {
        return value && typeof value === 'object' && !Array.isArray(value) && Object.hasOwn(value, step.field)
          ? [(value as Json)[step.field]]
          : [];
      }
      if (!Array.isArray(value)) return [];
      if ('index' in step) return step.index < value.length ? [value[step.index]] : [];
      return value.filter((item) => rec(item)[step.where] === step.equals);
    });
  }
  return current.filter((value) => value !== null && value !== undefined);
}

/** The tableconvertor's cell: strings as jsonpath prints them, others per cellForJSONValue. */
function customCell(column: PrinterColumn, object: KubeObject, now: Date): unknown {
  const [value] = findResults(object, parseJsonPath(column.jsonPath));
  if (value === undefined) return null;
  switch (column.type) {
    case 'string':
      if (typeof value === 'string') return value;
      return typeof value === 'object' ? JSON.stringify(value) : String(value);
    case 'integer':
      return typeof value === 'number' ? Math.trunc(value) : null;
    case 'number':
      return typeof value === 'number' ? value : null;
    case 'boolean':
      return typeof value === 'boolean' ? value : null;
    case 'date': {
      if (typeof value !== 'string') return null;
      const at = timestamp(value);
      return at === undefined ? '<invalid>' : humanDuration(now.getTime() - at);
    }
  }
}

function customResourcePrinter(columns: PrinterColumn[]): Printer {
  return {
    columns: [NAME, ...columns.map((c) => column(c.name, c.type, c.description, c.priority ?? 0))],
    print: (object, now) => ({
      cells: [object.metadata.name, ...columns.map((c) => customCell(c, object, now))],
    }),
  };
}

/** Every built-in resource served has a printer; the rest come from CRDs. */
function printerFor(resourcePlural: string): Printer {
  return (
    PRINTERS[resourcePlural] ??
    customResourcePrinter(CRD_PRINTER_COLUMNS[resourcePlural] ?? CRD_DEFAULT_COLUMNS)
  );
}

// ---------------------------------------------------------------------------------------------
// The representations.

/** meta.AsPartialObjectMetadata: the whole ObjectMeta under meta.k8s.io/v1's kind. */
export function toPartialObjectMetadata(object: KubeObject): PartialObjectMetadata {
  return { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: object.metadata };
}

function listMeta({ resourceVersion, continue: token, remainingItemCount }: ListMeta): ListMeta {
  return {
    ...(resourceVersion ? { resourceVersion } : {}),
    ...(token ? { continue: token } : {}),
    ...(remainingItemCount !== undefined ? { remainingItemCount } : {}),
  };
}

export function toPartialObjectMetadataList(
  objects: readonly KubeObject[],
  meta: ListMeta,
): PartialObjectMetadataList {
  return {
    kind: 'PartialObjectMetadataList',
    apiVersion: 'meta.k8s.io/v1',
    metadata: listMeta(meta),
    items: objects.map(toPartialObjectMetadata),
  };
}

function rowObject(object: KubeObject, includeObject: IncludeObject): unknown {
  if (includeObject === 'None') return null;
  return includeObject === 'Object' ? object : toPartialObjectMetadata(object);
}

/** The Table for a list (or, with one object, a get) of the resource, Wide columns included. */
export function toTable(
  resourcePlural: string,
  objects: readonly KubeObject[],
  options: TableOptions,
): Table {
  const printer = printerFor(resourcePlural);
  const includeObject = options.includeObject ?? 'Metadata';
  return {
    kind: 'Table',
    apiVersion: 'meta.k8s.io/v1',
    metadata: listMeta(options),
    columnDefinitions: printer.columns,
    rows: objects.map((object) => {
      const { cells, conditions } = printer.print(object, options.now);
      return { cells, ...(conditions ? { conditions } : {}), object: rowObject(object, includeObject) };
    }),
  };
}

/** The `includeObject` query parameter as the Table transform validates it. */
export function parseIncludeObject(value: string | null | undefined): IncludeObject {
  if (!value) return 'Metadata';
  if (value === 'None' || value === 'Metadata' || value === 'Object') return value;
  throw errors.badRequest(
    `Unable to convert to Table as requested: includeObject: Unsupported value: ${goQuote(value)}: supported values: "Metadata", "None", "Object"`,
  );
}

// ---------------------------------------------------------------------------------------------
// Accept negotiation: goautoneg.ParseAccept, then NegotiateMediaTypeOptions against the JSON
// serializer, the only one the simulator speaks.

export type Representation = 'json' | 'table' | 'partial' | 'partial-list';

interface AcceptClause {
  type: string;
  subType: string;
  q: number;
  params: Map<string, string>;
}

/** strings.Trim(s, " "): spaces only, not tabs. */
const trimSpaces = (text: string) => text.replace(/^ +| +$/g, '');

/** strconv.ParseFloat's decimal syntax; anything else leaves q at Go's error value, 0. */
function parseQuality(text: string): number {
  return /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(text) ? Number(text) : 0;
}

function parseAcceptClause(part: string): AcceptClause | undefined {
  const [range = '', ...rawParams] = part.split(';');
  const pieces = range.split('/');
  const type = trimSpaces(pieces[0] ?? '');
  let clause: AcceptClause;
  if (pieces.length === 1 && type === '*') clause = { type: '*', subType: '*', q: 1, params: new Map() };
  else if (pieces.length === 2)
    clause = { type, subType: trimSpaces(pieces[1] ?? ''), q: 1, params: new Map() };
  else return undefined;
  for (const param of rawParams) {
    const at = param.indexOf('=');
    if (at < 0) continue;
    const token = trimSpaces(param.slice(0, at));
    if (token === 'q') clause.q = parseQuality(param.slice(at + 1));
    else clause.params.set(token, trimSpaces(param.slice(at + 1)));
  }
  return clause;
}

/** goautoneg's ordering: higher q first, then concrete types before wildcards. */
function before(a: AcceptClause, b: AcceptClause): boolean {
  return a.q > b.q || (a.type !== '*' && b.type === '*') || (a.subType !== '*' && b.subType === '*');
}

function parseAccept(header: string): AcceptClause[] {
  const clauses = header.split(',').flatMap((part) => parseAcceptClause(part) ?? []);
  // Go sorts short slices by insertion; its Less is not a strict order, so the algorithm matters.
  for (let i = 1; i < clauses.length; i++) {
    for (let j = i; j > 0 && before(clauses[j] as AcceptClause, clauses[j - 1] as AcceptClause); j--) {
      [clauses[j - 1], clauses[j]] = [clauses[j] as AcceptClause, clauses[j - 1] as AcceptClause];
    }
  }
  return clauses;
}

/** acceptMediaTypeOptions plus AllowsMediaTypeTransform, for application/json. */
function representationFor(params: Map<string, string>, isList: boolean): Representation | undefined {
  const stream = params.get('stream');
  if (stream && stream !== 'watch') return undefined;
  const serverVersion = params.get('sv');
  if (serverVersion && serverVersion !== 'v1') return undefined;
  const kind = params.get('as');
  const group = params.get('g');
  const version = params.get('v');
  if (kind === undefined && group === undefined && version === undefined) return 'json';
  if (group !== 'meta.k8s.io' || (version !== 'v1' && version !== 'v1beta1')) return undefined;
  if (kind === 'Table') return 'table';
  // The endpoint serves one shape: a list never as a single object, a get never as a list.
  if (kind === 'PartialObjectMetadata') return isList ? undefined : 'partial';
  if (kind === 'PartialObjectMetadataList') return isList ? 'partial-list' : undefined;
  return undefined;
}

/**
 * The representation the first acceptable Accept clause asks for; an empty header means plain
 * JSON. Protobuf and YAML clauses are passed over, since the simulator writes only JSON.
 */
export function negotiate(acceptHeader: string | undefined, isList: boolean): Representation {
  if (!acceptHeader) return 'json';
  for (const clause of parseAccept(acceptHeader)) {
    const matchesJson =
      (clause.type === 'application' && (clause.subType === 'json' || clause.subType === '*')) ||
      (clause.type === '*' && clause.subType === '*');
    const representation = matchesJson ? representationFor(clause.params, isList) : undefined;
    if (representation) return representation;
  }
  throw errors.notAcceptable(
    'only the following media types are accepted: application/json, application/yaml, application/vnd.kubernetes.protobuf',
  );
}
