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

/**
 * Everything a stored CEP is built from (see createCompact in sim/store.ts), flat, its own uid
 * and the sandbox id kept as a seed (see seeded-ids.ts).
 */
export interface StoredEndpointFacts
  extends Omit<EndpointOwner, 'uid'>,
    Omit<EndpointFacts, 'sandboxId'>,
    IdSeed {
  podUid: string;
  createdAt: string;
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

/** The stored CEP: makeEndpoint with the uid and creation time it was written with. */
export function storedEndpoint(facts: StoredEndpointFacts): KubeObject {
  const { name, namespace, podUid, labels, podIP } = facts;
  const endpoint = makeEndpoint(
    { name, namespace, uid: podUid, labels, podIP },
    {
      id: facts.id,
      identity: facts.identity,
      nodeIP: facts.nodeIP,
      sandboxId: seededHex(facts, ID_SALT.sandbox, 64),
      ...(facts.ingressEnforced ? { ingressEnforced: true } : {}),
    },
  );
  endpoint.metadata.uid = seededUuid(facts, ID_SALT.uid);
  endpoint.metadata.creationTimestamp = facts.createdAt;
  return endpoint;
}
