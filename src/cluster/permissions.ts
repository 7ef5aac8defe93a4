/**
 * The Kubernetes permissions the runbooks need, and no more. The deploy ships them (`responder
 * rbac`, deploy/rbac.yaml): the `cluster` rules as a ClusterRole, the `cilium-namespace` ones as a
 * Role in the Cilium namespace. A test runs every runbook with a token limited to exactly these.
 */
export interface PermissionRule {
  /** API groups, `''` for the core group. */
  apiGroups: string[];
  /** Resources (and subresources, e.g. `pods/eviction`) as RBAC names them. */
  resources: string[];
  /** RBAC verbs, e.g. `get`, `list`. */
  verbs: string[];
  /** Only these objects (RBAC checks the name, so only verbs that name one: get, delete, ...). */
  resourceNames?: string[];
  /** Everywhere (a ClusterRole), or only in the namespace the Cilium agents run in (a Role). */
  scope: 'cluster' | 'cilium-namespace';
}

/** The ConfigMap the Cilium agents read their settings from; the only one the responder reads. */
export const CILIUM_CONFIG_MAP = 'cilium-config';

export const RESPONDER_RULES: readonly PermissionRule[] = [
  // Pods and nodes are read one by one (the actuator's preconditions, probe checks) and listed.
  { apiGroups: [''], resources: ['pods', 'nodes'], verbs: ['get', 'list'], scope: 'cluster' },
  // The unmanaged-pods scan reads one namespace at a time, so a run can go on from the ones it read.
  { apiGroups: [''], resources: ['namespaces'], verbs: ['list'], scope: 'cluster' },
  // Probe-failure events and the policies that select the failing pods are only listed.
  { apiGroups: [''], resources: ['events'], verbs: ['list'], scope: 'cluster' },
  { apiGroups: ['networking.k8s.io'], resources: ['networkpolicies'], verbs: ['list'], scope: 'cluster' },
  // A pod's CiliumEndpoint is read by name after a restart; unmanaged pods are found by listing them.
  { apiGroups: ['cilium.io'], resources: ['ciliumendpoints'], verbs: ['get', 'list'], scope: 'cluster' },
  // Restarting unmanaged pods goes through the Eviction API, so PodDisruptionBudgets hold.
  { apiGroups: [''], resources: ['pods/eviction'], verbs: ['create'], scope: 'cluster' },
  // The agents' settings, and nothing else of the namespace's config (on EKS, kube-system holds aws-auth).
  {
    apiGroups: [''],
    resources: ['configmaps'],
    verbs: ['get'],
    resourceNames: [CILIUM_CONFIG_MAP],
    scope: 'cilium-namespace',
  },
  // Exec into Cilium agents; WebSocket exec is a GET, which kube-apiserver authorises as `get`
  // before 1.35 and as `create` from 1.35, so both.
  { apiGroups: [''], resources: ['pods/exec'], verbs: ['get', 'create'], scope: 'cilium-namespace' },
  // Restarting a Cilium agent (approved plans only) deletes its pod; its DaemonSet brings it back.
  { apiGroups: [''], resources: ['pods'], verbs: ['delete'], scope: 'cilium-namespace' },
];
