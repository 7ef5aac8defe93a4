import type { SimCluster } from '../cluster.ts';
import { type AddressPlan, addressPlan, intToIp } from './addresses.ts';
import { Random } from './random.ts';

/** A Cilium security identity: its numeric id and the labels it was allocated for. */
export interface Identity {
  id: number;
  labels: readonly string[];
}

/** Pod labels Cilium leaves out of identities (they differ between otherwise equal pods). */
const NON_IDENTITY_LABELS = new Set([
  'pod-template-hash',
  'controller-revision-hash',
  'pod-template-generation',
]);
const FIRST_ALLOCATED_IDENTITY = 256;
/** Cilium's cluster-local identities end at 65,535. */
const IDENTITY_SPACE = 65536 - FIRST_ALLOCATED_IDENTITY;
const MAX_ENDPOINT_ID = 4095;

interface NodeAllocation {
  /** First address of the node's pod block. */
  base: number;
  nextPodOffset: number;
  nextEndpointId: number;
}

/**
 * What the cluster hands out and must not hand out twice: pod addresses per node, Cilium endpoint
 * ids per node, and security identities per label set. The builder fills it; the controllers keep
 * using it for replacement pods, so a new pod gets a fresh address and its workload's identity.
 */
export class Allocations {
  private readonly nodes = new Map<string, NodeAllocation>();
  private readonly identities = new Map<string, Identity>();
  private readonly identityIds = new Set<number>();
  /** Identities by the (shared) labels object a workload's pods carry, to skip rebuilding keys. */
  private readonly byLabelsObject = new WeakMap<object, Map<string, Identity>>();
  /**
   * When set, the only pod label keys that make an identity (cilium-config `labels`, as large
   * clusters set it so their workloads fit in the identity space); else all but NON_IDENTITY_LABELS.
   */
  identityLabelKeys: ReadonlySet<string> | undefined;

  constructor(
    readonly random: Random,
    readonly clusterName: string,
    readonly plan: AddressPlan = addressPlan(0),
  ) {}

  /** The node's pod block; a node seen for the first time gets the next free one. */
  private node(name: string): NodeAllocation {
    let found = this.nodes.get(name);
    if (!found) {
      found = {
        base: this.plan.podBlock(this.nodes.size).base,
        nextPodOffset: this.plan.podBlockFirst,
        nextEndpointId: 1 + this.random.int(MAX_ENDPOINT_ID / 2),
      };
      this.nodes.set(name, found);
    }
    return found;
  }

  podCidr(node: string): string {
    return `${intToIp(this.node(node).base)}/${this.plan.podBlockBits}`;
  }

  /** The node's `cilium_host` address (CiliumInternalIP). */
  routerIp(node: string): string {
    return intToIp(this.node(node).base + 1);
  }

  healthIp(node: string): string {
    return intToIp(this.node(node).base + 2);
  }

  /** The first `count` addresses of the node's block, at most the whole block (an ENI's secondary addresses). */
  blockAddresses(node: string, count: number): string[] {
    const { base } = this.node(node);
    const length = Math.min(count, this.plan.podBlockLast);
    return Array.from({ length }, (_, i) => intToIp(base + 1 + i));
  }

  podIp(node: string): string {
    const allocation = this.node(node);
    const ip = intToIp(allocation.base + allocation.nextPodOffset);
    allocation.nextPodOffset =
      allocation.nextPodOffset === this.plan.podBlockLast
        ? this.plan.podBlockFirst
        : allocation.nextPodOffset + 1;
    return ip;
  }

  endpointId(node: string): number {
    const allocation = this.node(node);
    const id = allocation.nextEndpointId;
    allocation.nextEndpointId = id === MAX_ENDPOINT_ID ? 1 : id + 1;
    return id;
  }

  /** The identity of pods with these labels in this namespace, allocated on first use. */
  identity(namespace: string, serviceAccount: string, podLabels: Readonly<Record<string, string>>): Identity {
    let known = this.byLabelsObject.get(podLabels);
    if (!known) {
      known = new Map();
      this.byLabelsObject.set(podLabels, known);
    }
    const scope = `${namespace}/${serviceAccount}`;
    let found = known.get(scope);
    if (!found) {
      found = this.identityFor(namespace, serviceAccount, podLabels);
      known.set(scope, found);
    }
    return found;
  }

  private identityFor(
    namespace: string,
    serviceAccount: string,
    podLabels: Readonly<Record<string, string>>,
  ): Identity {
    const labels = [
      ...Object.entries(podLabels)
        .filter(([key]) =>
          this.identityLabelKeys ? this.identityLabelKeys.has(key) : !NON_IDENTITY_LABELS.has(key),
        )
        .map(([key, value]) => `k8s:${key}=${value}`),
      `k8s:io.cilium.k8s.namespace.labels.kubernetes.io/metadata.name=${namespace}`,
      `k8s:io.cilium.k8s.policy.cluster=${this.clusterName}`,
      `k8s:io.cilium.k8s.policy.serviceaccount=${serviceAccount}`,
      `k8s:io.kubernetes.pod.namespace=${namespace}`,
    ].sort();
    const key = labels.join(',');
    let found = this.identities.get(key);
    if (!found) {
      if (this.identityIds.size === IDENTITY_SPACE) {
        throw new Error(
          `the cluster has used all ${IDENTITY_SPACE} Cilium identities: restrict the identity labels (Allocations.identityLabelKeys)`,
        );
      }
      let id: number;
      do id = FIRST_ALLOCATED_IDENTITY + this.random.int(65536 - FIRST_ALLOCATED_IDENTITY);
      while (this.identityIds.has(id));
      this.identityIds.add(id);
      found = Object.freeze({ id, labels: Object.freeze(labels) });
      this.identities.set(key, found);
    }
    return found;
  }
}

const byCluster = new WeakMap<SimCluster, Allocations>();

export function attachAllocations(cluster: SimCluster, allocations: Allocations): void {
  byCluster.set(cluster, allocations);
}

/** The cluster's allocations; a cluster not built by the builder gets fresh ones. */
export function allocationsOf(cluster: SimCluster): Allocations {
  let found = byCluster.get(cluster);
  if (!found) {
    found = new Allocations(new Random(0), cluster.name);
    byCluster.set(cluster, found);
  }
  return found;
}
