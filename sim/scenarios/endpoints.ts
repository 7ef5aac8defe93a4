import {
  type LabelSelector,
  matchLabelSelectorObject as selectorMatches,
} from '../../src/cluster/label-selector.ts';
import { R, type SimCluster } from '../cluster.ts';
import type { KubeObject, Pod } from '../objects.ts';
import { allocationsOf } from './allocations.ts';
import { type StoredEndpointFacts, storedEndpoint } from './make/endpoint.ts';
import { drawSeed } from './seeded-ids.ts';

interface NetworkPolicySpec {
  podSelector?: LabelSelector;
  policyTypes?: string[];
}

/** Whether an ingress NetworkPolicy in the pod's namespace selects it. */
export function ingressPolicySelects(cluster: SimCluster, pod: Pod): boolean {
  const policies = cluster.store.list(R.networkpolicies, {
    namespace: pod.metadata.namespace as string,
  }).items;
  return policies.some((policy) => {
    const spec = policy.spec as NetworkPolicySpec;
    const ingress = spec.policyTypes === undefined || spec.policyTypes.includes('Ingress');
    return ingress && selectorMatches(spec.podSelector ?? {}, pod.metadata.labels);
  });
}

/**
 * What the Cilium agent does once it manages a pod: allocate an endpoint id on its node, resolve
 * the pod's security identity, and write the CiliumEndpoint (stamped `createdAt`, or now).
 */
export function addEndpoint(cluster: SimCluster, pod: Pod, createdAt?: string): KubeObject {
  const allocations = allocationsOf(cluster);
  const node = pod.spec.nodeName as string;
  const { name, namespace = '', uid = '', labels = {} } = pod.metadata;
  const seed = drawSeed(allocations.random);
  const facts: StoredEndpointFacts = {
    name,
    namespace,
    podUid: uid,
    labels,
    podIP: pod.status?.podIP as string,
    id: allocations.endpointId(node),
    identity: allocations.identity(namespace, pod.spec.serviceAccountName ?? 'default', labels),
    nodeIP: pod.status?.hostIP as string,
    ingressEnforced: ingressPolicySelects(cluster, pod),
    createdAt: createdAt ?? cluster.store.timestamp(),
    seedHi: seed.seedHi,
    seedLo: seed.seedLo,
  };
  return cluster.store.createCompact(R.ciliumendpoints, facts, storedEndpoint);
}
