/** The API resources the simulator serves, with the discovery facts kubectl needs. */
export interface ResourceType {
  /** '' for the core group. */
  group: string;
  version: string;
  kind: string;
  listKind: string;
  plural: string;
  singular: string;
  shortNames: string[];
  namespaced: boolean;
  verbs: string[];
  categories?: string[];
}

const rw = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];

function resource(
  group: string,
  version: string,
  kind: string,
  plural: string,
  namespaced: boolean,
  shortNames: string[] = [],
  categories?: string[],
): ResourceType {
  return {
    group,
    version,
    kind,
    listKind: `${kind}List`,
    plural,
    singular: kind.toLowerCase(),
    shortNames,
    namespaced,
    verbs: rw,
    ...(categories ? { categories } : {}),
  };
}

export const RESOURCES: readonly ResourceType[] = [
  resource('', 'v1', 'Namespace', 'namespaces', false, ['ns']),
  resource('', 'v1', 'Node', 'nodes', false, ['no']),
  resource('', 'v1', 'Pod', 'pods', true, ['po'], ['all']),
  resource('', 'v1', 'ConfigMap', 'configmaps', true, ['cm']),
  resource('', 'v1', 'Event', 'events', true, ['ev']),
  resource('', 'v1', 'ServiceAccount', 'serviceaccounts', true, ['sa']),
  resource('apps', 'v1', 'ReplicaSet', 'replicasets', true, ['rs'], ['all']),
  resource('apps', 'v1', 'DaemonSet', 'daemonsets', true, ['ds'], ['all']),
  resource('apps', 'v1', 'Deployment', 'deployments', true, ['deploy'], ['all']),
  resource('networking.k8s.io', 'v1', 'NetworkPolicy', 'networkpolicies', true, ['netpol']),
  resource('policy', 'v1', 'PodDisruptionBudget', 'poddisruptionbudgets', true, ['pdb']),
  resource('cilium.io', 'v2', 'CiliumEndpoint', 'ciliumendpoints', true, ['cep', 'ciliumep'], ['cilium']),
  resource('cilium.io', 'v2', 'CiliumNode', 'ciliumnodes', false, ['cn', 'ciliumn'], ['cilium']),
];

/** Subresources served beside their parent: name → verbs and the kind a request carries. */
export const POD_SUBRESOURCES = [
  { name: 'pods/eviction', kind: 'Eviction', group: 'policy', version: 'v1', verbs: ['create'] },
  { name: 'pods/exec', kind: 'PodExecOptions', verbs: ['create', 'get'] },
  { name: 'pods/log', kind: 'Pod', verbs: ['get'] },
  { name: 'pods/status', kind: 'Pod', verbs: ['get', 'patch', 'update'] },
] as const;

export function apiVersionOf(type: ResourceType): string {
  return type.group ? `${type.group}/${type.version}` : type.version;
}

/** The name kube-apiserver uses in messages: `pods`, `ciliumendpoints.cilium.io`. */
export function qualifiedName(type: ResourceType): string {
  return type.group ? `${type.plural}.${type.group}` : type.plural;
}

export function findResource(group: string, version: string, plural: string): ResourceType | undefined {
  return RESOURCES.find((r) => r.group === group && r.version === version && r.plural === plural);
}

export function resourceByPlural(plural: string): ResourceType {
  const found = RESOURCES.find((r) => r.plural === plural);
  if (!found) throw new Error(`unknown resource ${plural}`);
  return found;
}
