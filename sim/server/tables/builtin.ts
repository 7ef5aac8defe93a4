/** The built-in resources' printers, keyed by resource plural, with their column definitions. */

import { AGE, arr, column, DOC, formatLabelSelector, NAME, type Printer, rec, since, str } from './cells.ts';
import { printPod } from './pod.ts';
import {
  printDaemonSet,
  printDeployment,
  printEvent,
  printNode,
  printPodDisruptionBudget,
  printReplicaSet,
} from './resources.ts';

export const PRINTERS: Record<string, Printer> = {
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
