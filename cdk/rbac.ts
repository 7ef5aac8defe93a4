import { stringify } from 'yaml';
import { type PermissionRule, RESPONDER_RULES } from '../src/cluster/permissions.ts';

/** The Kubernetes group the responder's EKS access entries map its worker role to. */
export const RESPONDER_GROUP = 'cilium-responder';

/** The rules of one scope, as RBAC writes them. */
function rulesOf(scope: PermissionRule['scope']) {
  return RESPONDER_RULES.filter((rule) => rule.scope === scope).map(({ scope: _scope, ...rule }) => rule);
}

/**
 * The RBAC for that group, from the one source of truth (src/cluster/permissions.ts): what the
 * runbooks read and evict cluster-wide (a ClusterRole), and what they do only in the Cilium
 * namespace (a Role): read cilium-config, exec into agents, delete an agent pod to restart it.
 */
export function rbacManifest(ciliumNamespace = 'kube-system'): string {
  const clusterRules = rulesOf('cluster');
  const agentRules = rulesOf('cilium-namespace');
  const documents = [
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: RESPONDER_GROUP },
      rules: clusterRules,
    },
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: { name: RESPONDER_GROUP },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: RESPONDER_GROUP },
      subjects: [{ kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: RESPONDER_GROUP }],
    },
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'Role',
      metadata: { name: `${RESPONDER_GROUP}-agents`, namespace: ciliumNamespace },
      rules: agentRules,
    },
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: { name: `${RESPONDER_GROUP}-agents`, namespace: ciliumNamespace },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: `${RESPONDER_GROUP}-agents` },
      subjects: [{ kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: RESPONDER_GROUP }],
    },
  ];
  return `# Generated from src/cluster/permissions.ts by \`responder rbac\`; do not edit.\n${documents.map((d) => `---\n${stringify(d, { aliasDuplicateObjects: false })}`).join('')}`;
}
