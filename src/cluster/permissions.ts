/**
 * The Kubernetes permissions the runbooks need, and no more. The deploy ships them as the
 * ClusterRole bound to the responder's EKS access entry; a test runs every runbook with a token
 * limited to exactly these rules.
 */
export interface PermissionRule {
  apiGroups: string[];
  resources: string[];
  verbs: string[];
}

export const READ = ['get', 'list'];

export const RESPONDER_RULES: readonly PermissionRule[] = [
  { apiGroups: [''], resources: ['pods', 'nodes', 'configmaps', 'events', 'namespaces'], verbs: READ },
  { apiGroups: ['apps'], resources: ['daemonsets', 'replicasets', 'deployments'], verbs: READ },
  { apiGroups: ['networking.k8s.io'], resources: ['networkpolicies'], verbs: READ },
  { apiGroups: ['policy'], resources: ['poddisruptionbudgets'], verbs: READ },
  { apiGroups: ['cilium.io'], resources: ['ciliumendpoints', 'ciliumnodes'], verbs: READ },
  // Exec into Cilium agents; WebSocket exec is a GET, which kube-apiserver authorises as `get`
  // before 1.35 and as `create` from 1.35, so both.
  { apiGroups: [''], resources: ['pods/exec'], verbs: ['get', 'create'] },
  // Restarting unmanaged pods goes through the Eviction API, so PodDisruptionBudgets hold.
  { apiGroups: [''], resources: ['pods/eviction'], verbs: ['create'] },
  // Restarting a Cilium agent (approved plans only) deletes its pod; its DaemonSet brings it back.
  { apiGroups: [''], resources: ['pods'], verbs: ['delete'] },
];
