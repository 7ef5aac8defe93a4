import {
  type LabelSelector,
  matchLabelSelectorObject as selectorMatches,
} from '../../src/cluster/label-selector.ts';
import { R, type SimCluster } from '../cluster.ts';
import type { KubeObject, Pod } from '../objects.ts';
import { allocationsOf } from './allocations.ts';
import { type EndpointShape, type StoredEndpointFacts, storedEndpoint } from './make/endpoint.ts';
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

/** A workload's pods get their CEPs one after another: each reuses the shape before it while it fits. */
let lastShape: EndpointShape | undefined;

function shapeOf(shape: EndpointShape): EndpointShape {
  const last = lastShape;
  if (
    last &&
    last.namespace === shape.namespace &&
    last.labels === shape.labels &&
    last.identity === shape.identity &&
    last.ingressEnforced === shape.ingressEnforced &&
    last.createdAt === shape.createdAt
  ) {
    return last;
  }
  lastShape = Object.freeze(shape);
  return lastShape;
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
    shape: shapeOf({
      namespace,
      labels,
      identity: allocations.identity(namespace, pod.spec.serviceAccountName ?? 'default', labels),
      ingressEnforced: ingressPolicySelects(cluster, pod),
      createdAt: createdAt ?? cluster.store.timestamp(),
    }),
    name,
    podUid: uid,
    podIP: pod.status?.podIP as string,
    id: allocations.endpointId(node),
    nodeIP: pod.status?.hostIP as string,
    seedHi: seed.seedHi,
    seedLo: seed.seedLo,
  };
  return cluster.store.createCompact(R.ciliumendpoints, facts, storedEndpoint);
}
