import { apiVersionOf, POD_SUBRESOURCES, RESOURCES, type ResourceType } from '../resources.ts';

/**
 * Legacy (unaggregated) discovery: kubectl and client-go ask for the aggregated form first and
 * fall back to these documents when the answer is plain `application/json`.
 */

export const KUBERNETES_VERSION = {
  major: '1',
  minor: '33',
  gitVersion: 'v1.33.5-eks-113cf36',
  gitCommit: '38e5cc3ae1ba53e2fdbd8e7a64fb7f40c23ba8a6',
  gitTreeState: 'clean',
  buildDate: '2025-09-19T22:32:11Z',
  goVersion: 'go1.24.6',
  compiler: 'gc',
  platform: 'linux/amd64',
} as const;

function groupVersions(): Map<string, { group: string; version: string }> {
  const versions = new Map<string, { group: string; version: string }>();
  for (const type of RESOURCES) {
    if (type.group) versions.set(apiVersionOf(type), { group: type.group, version: type.version });
  }
  // The Eviction kind lives in policy/v1 beside PodDisruptionBudget.
  return versions;
}

export function apiVersions(serverAddress: string) {
  return {
    kind: 'APIVersions',
    versions: ['v1'],
    serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress }],
  };
}

export function apiGroupList() {
  const groups = new Map<string, string[]>();
  for (const { group, version } of groupVersions().values())
    groups.set(group, [...(groups.get(group) ?? []), version]);
  return {
    kind: 'APIGroupList',
    apiVersion: 'v1',
    groups: [...groups].map(([name, versions]) => ({
      name,
      versions: versions.map((version) => ({ groupVersion: `${name}/${version}`, version })),
      preferredVersion: { groupVersion: `${name}/${versions[0]}`, version: versions[0] },
    })),
  };
}

export function apiGroup(group: string) {
  const list = apiGroupList().groups.find((g) => g.name === group);
  return list ? { kind: 'APIGroup', apiVersion: 'v1', ...list } : undefined;
}

function describeResource(type: ResourceType) {
  return {
    name: type.plural,
    singularName: type.singular,
    namespaced: type.namespaced,
    kind: type.kind,
    verbs: type.verbs,
    ...(type.shortNames.length ? { shortNames: type.shortNames } : {}),
    ...(type.categories ? { categories: type.categories } : {}),
  };
}

/** The APIResourceList for one group version, or undefined when the simulator does not serve it. */
export function apiResourceList(group: string, version: string) {
  const types = RESOURCES.filter((r) => r.group === group && r.version === version);
  if (types.length === 0) return undefined;
  const resources: object[] = types.map(describeResource);
  if (group === '' && version === 'v1') {
    for (const sub of POD_SUBRESOURCES) {
      resources.push({
        name: sub.name,
        singularName: '',
        namespaced: true,
        ...('group' in sub ? { group: sub.group, version: sub.version } : {}),
        kind: sub.kind,
        verbs: sub.verbs,
      });
    }
  }
  return {
    kind: 'APIResourceList',
    apiVersion: 'v1',
    groupVersion: group ? `${group}/${version}` : version,
    resources,
  };
}
