import { parseAllDocuments } from 'yaml';
import { rbacManifest } from '../../cdk/rbac.ts';
import type { AccessRule } from '../../sim/server/auth.ts';

/**
 * The RBAC the deploy ships (`responder rbac`, deploy/rbac.yaml) as the simulator's rules: the
 * ClusterRole's everywhere, the Role's only in its namespace.
 */
export function shippedRules(ciliumNamespace = 'kube-system'): AccessRule[] {
  return parseAllDocuments(rbacManifest(ciliumNamespace)).flatMap((document) => {
    const object = document.toJS() as {
      kind: string;
      metadata: { namespace?: string };
      rules?: AccessRule[];
    };
    if (object.kind === 'ClusterRole') return object.rules ?? [];
    if (object.kind === 'Role')
      return (object.rules ?? []).map((rule) => ({
        ...rule,
        namespaces: [object.metadata.namespace as string],
      }));
    return [];
  });
}
