import type { CompactKind } from '../../compact.ts';
import type { KubeObject, OwnerReference } from '../../objects.ts';
import type { Identity } from '../allocations.ts';
import { ID_SALT, type IdSeed, seededHex, seededUuid } from '../seeded-ids.ts';

const POLICY_DISABLED = Object.freeze({
  ingress: Object.freeze({ enforcing: false, state: '<status disabled>' }),
  egress: Object.freeze({ enforcing: false, state: '<status disabled>' }),
});
const POLICY_INGRESS = Object.freeze({
  ingress: Object.freeze({ enforcing: true, state: '<status disabled>' }),
  egress: POLICY_DISABLED.egress,
});
const ENCRYPTION = Object.freeze({});

/** What a CEP takes from its pod. */
export interface EndpointOwner {
  name: string;
  namespace: string;
  uid: string;
  labels: Readonly<Record<string, string>>;
  podIP: string;
}

/** What the CEPs of one workload's pods share (they are written one after another). */
export interface EndpointShape {
  namespace: string;
  labels: Readonly<Record<string, string>>;
  identity: Identity;
  ingressEnforced: boolean;
  createdAt: string;
}

/**
 * Everything a stored CEP is built from (see createCompact in sim/store.ts): its shape and what is
 * its own, its uid and the sandbox id kept as a seed (see seeded-ids.ts).
 */
export interface StoredEndpointFacts extends IdSeed {
  shape: EndpointShape;
  name: string;
  podUid: string;
  podIP: string;
  id: number;
  nodeIP: string;
}

export interface EndpointFacts {
  /** Cilium's endpoint id, unique per node. */
  id: number;
  identity: Identity;
  /** The node's InternalIP: CEP `status.networking.node` is an address, not a node name. */
  nodeIP: string;
  /** The pod sandbox's containerd id (CNI ADD is called for the sandbox). */
  sandboxId: string;
  /** An ingress NetworkPolicy selects the pod. */
  ingressEnforced?: boolean;
}

/**
 * The CiliumEndpoint the agent writes for a pod it manages: same namespace and name, owned by the
 * pod. Sub-objects are frozen as made (one CEP per pod: see make/pod.ts).
 */
export function makeEndpoint(owner: EndpointOwner, facts: EndpointFacts): KubeObject {
  const { freeze } = Object;
  const { name, namespace, uid } = owner;
  return {
    apiVersion: 'cilium.io/v2',
    kind: 'CiliumEndpoint',
    metadata: {
      name,
      namespace,
      generation: 1,
      labels: owner.labels as Record<string, string>,
      ownerReferences: freeze([freeze({ apiVersion: 'v1', kind: 'Pod', name, uid })]) as OwnerReference[],
    },
    status: freeze({
      encryption: ENCRYPTION,
      'external-identifiers': freeze({
        'cni-attachment-id': `${facts.sandboxId}:eth0`,
        'container-id': facts.sandboxId,
        'k8s-namespace': namespace,
        'k8s-pod-name': name,
        'pod-name': `${namespace}/${name}`,
      }),
      id: facts.id,
      identity: facts.identity,
      networking: freeze({ addressing: freeze([freeze({ ipv4: owner.podIP })]), node: facts.nodeIP }),
      policy: facts.ingressEnforced ? POLICY_INGRESS : POLICY_DISABLED,
      state: 'ready',
      'visibility-policy-status': '<status disabled>',
    }),
  };
}

/**
 * The stored CEP: makeEndpoint with the uid and creation time it was written with. Its values are
 * the name, the pod's uid and address, the endpoint id, the node's address, the sandbox id and the uid.
 */
export const storedEndpoint: CompactKind<StoredEndpointFacts> = {
  shape: (facts) => facts.shape,
  values: (facts) => [
    facts.name,
    facts.podUid,
    facts.podIP,
    facts.id,
    facts.nodeIP,
    seededHex(facts, ID_SALT.sandbox, 64),
    seededUuid(facts, ID_SALT.uid),
  ],
  makeWith({ shape }, values) {
    const text = (index: number) => values[index] as string;
    const endpoint = makeEndpoint(
      { name: text(0), namespace: shape.namespace, uid: text(1), labels: shape.labels, podIP: text(2) },
      {
        id: values[3] as number,
        identity: shape.identity,
        nodeIP: text(4),
        sandboxId: text(5),
        ...(shape.ingressEnforced ? { ingressEnforced: true } : {}),
      },
    );
    endpoint.metadata.uid = text(6);
    endpoint.metadata.creationTimestamp = shape.createdAt;
    return endpoint;
  },
};
