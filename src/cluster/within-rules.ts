import type { PermissionRule } from './permissions.ts';
import { type CiliumFacade, KubeError, type KubeReader, type ResourceRef } from './types.ts';

/** Why a read is refused: the rule a runbook would need, in the words of its `permissions`. */
function undeclared(
  runbook: string,
  verb: string,
  resource: ResourceRef,
  namespace: string | undefined,
): KubeError {
  const where = namespace ? ` in namespace ${namespace}` : ' across the cluster';
  const group = resource.group === '' ? "''" : resource.group;
  return new KubeError(
    'forbidden',
    verb,
    resource.plural,
    `runbook ${runbook} reads ${resource.plural}${where} without a rule for it: declare { apiGroups: [${group}], resources: [${resource.plural}], verbs: [${verb}] } in its permissions, which the deploy's RBAC is made of`,
    403,
  );
}

/** What RBAC decides for one request: a rule covers its group, resource, verb, name and namespace. */
function allows(
  rule: PermissionRule,
  request: { verb: string; group: string; resource: string; namespace: string | undefined; name?: string },
  ciliumNamespace: string,
): boolean {
  if (rule.scope === 'cilium-namespace' && request.namespace !== ciliumNamespace) return false;
  if (rule.resourceNames && (request.name === undefined || !rule.resourceNames.includes(request.name)))
    return false;
  return (
    rule.apiGroups.includes(request.group) &&
    rule.resources.includes(request.resource) &&
    rule.verbs.includes(request.verb)
  );
}

/**
 * The reads of a facade, as an object with no write methods at all (not just a narrower type),
 * refusing what the deploy's RBAC would refuse: a read no rule covers (the
 * responder's own and the runbook's declared ones). In AWS the cluster's RBAC is made of exactly
 * these rules; checking them on every run makes a team's undeclared read fail where it is written
 * and tested (the CLI, the simulator, an admin kubeconfig), not first in production.
 */
export function withinRules(
  kube: KubeReader,
  runbook: string,
  rules: readonly PermissionRule[],
  /** Where the `cilium-namespace` rules apply, read at each check. */
  cilium: Pick<CiliumFacade, 'namespace'>,
): KubeReader {
  const check = (verb: string, resource: ResourceRef, namespace: string | undefined, name?: string) => {
    const request = { verb, group: resource.group, resource: resource.plural, namespace, name };
    if (!rules.some((rule) => allows(rule, request, cilium.namespace)))
      throw undeclared(runbook, verb, resource, namespace);
  };
  return {
    get clusterName() {
      return kube.clusterName;
    },
    get: async (resource, namespace, name) => {
      check('get', resource, namespace, name);
      return kube.get(resource, namespace, name);
    },
    list: async (resource, options) => {
      check('list', resource, options.namespace);
      return kube.list(resource, options);
    },
    pages: async function* (resource, options) {
      check('list', resource, options.namespace);
      yield* kube.pages(resource, options);
    },
    exec: async (namespace, pod, container, command, options) => {
      // kube-apiserver authorises a WebSocket exec as `get` before 1.35 and `create` from then on.
      const request = { group: '', resource: 'pods/exec', namespace, name: pod };
      const allowed = ['get', 'create'].some((verb) =>
        rules.some((rule) => allows(rule, { ...request, verb }, cilium.namespace)),
      );
      if (!allowed)
        throw new KubeError(
          'forbidden',
          'create',
          'pods/exec',
          `runbook ${runbook} execs only into the Cilium agents (${cilium.namespace})`,
          403,
        );
      return kube.exec(namespace, pod, container, command, options);
    },
  };
}
