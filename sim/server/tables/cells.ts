/** What every printer's cells are made of: kubectl's durations, column definitions, and the label, selector and container formatting printers.go shares. */

import { type LabelSelector, labelSelectorString } from '../../../src/cluster/label-selector.ts';
import type { KubeObject } from '../../objects.ts';
import type { TableColumnDefinition, TableRowCondition } from './types.ts';

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

export const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/** A metav1.Time as milliseconds; undefined for the zero time (absent) and unparsable text. */
export function timestamp(value: unknown): number | undefined {
  return typeof value === 'string' && RFC3339.test(value) ? Date.parse(value) : undefined;
}

/** translateTimestampSince: "<unknown>" for a zero time. */
export function since(value: unknown, now: Date): string {
  const at = timestamp(value);
  return at === undefined ? '<unknown>' : humanDuration(now.getTime() - at);
}

// ---------------------------------------------------------------------------------------------
// Loose access to stored JSON.

export type Json = Record<string, unknown>;

export const rec = (value: unknown): Json => (value && typeof value === 'object' ? (value as Json) : {});
export const arr = (value: unknown): Json[] => (Array.isArray(value) ? value.map(rec) : []);
export const str = (value: unknown): string => (typeof value === 'string' ? value : '');
export const int = (value: unknown): number => (typeof value === 'number' ? Math.trunc(value) : 0);

// ---------------------------------------------------------------------------------------------
// Column definitions. Descriptions are the Go SwaggerDoc strings the real columns carry.

export const DOC = {
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

export function column(
  name: string,
  type: string,
  description: string,
  priority = 0,
  format = '',
): TableColumnDefinition {
  return { name, type, format, description, priority };
}

export const NAME = column('Name', 'string', DOC.name, 0, 'name');
export const AGE = column('Age', 'string', DOC.creationTimestamp);

export interface PrintedRow {
  cells: unknown[];
  conditions?: TableRowCondition[];
}

export interface Printer {
  columns: TableColumnDefinition[];
  print(object: KubeObject, now: Date): PrintedRow;
}

// ---------------------------------------------------------------------------------------------
// Shared cell formatting.

/** layoutContainerCells: names and images, comma-joined. */
export function containerCells(template: unknown): [string, string] {
  const containers = arr(rec(rec(template).spec).containers);
  return [containers.map((c) => str(c.name)).join(','), containers.map((c) => str(c.image)).join(',')];
}

/** metav1.FormatLabelSelector: "<none>" when empty, "<error>" when it cannot convert. */
export function formatLabelSelector(selector: unknown): string {
  const text = labelSelectorString(selector as LabelSelector | undefined);
  return text === undefined ? '<error>' : text || '<none>';
}

/** labels.FormatLabels: sorted key=value pairs, or "<none>". */
export function formatLabels(map: unknown): string {
  const pairs = Object.entries(rec(map))
    .map(([key, value]) => `${key}=${str(value)}`)
    .sort();
  return pairs.length > 0 ? pairs.join(',') : '<none>';
}

/** intstr.IntOrString.String(). */
export function intOrString(value: unknown): string {
  return typeof value === 'number' ? String(value) : str(value);
}
