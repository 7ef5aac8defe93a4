import type { AgentState, AwsState } from './agent-state.ts';
import type { Pod } from './objects.ts';
import { resourceByPlural } from './resources.ts';
import { Store, type StoreOptions } from './store.ts';

export const CILIUM_NAMESPACE = 'kube-system';
export const AGENT_LABEL = { 'k8s-app': 'cilium' } as const;
export const AGENT_CONTAINER = 'cilium-agent';
export const AGENT_NOT_READY_TAINT = 'node.cilium.io/agent-not-ready';

export const R = {
  namespaces: resourceByPlural('namespaces'),
  nodes: resourceByPlural('nodes'),
  pods: resourceByPlural('pods'),
  configmaps: resourceByPlural('configmaps'),
  events: resourceByPlural('events'),
  serviceaccounts: resourceByPlural('serviceaccounts'),
  replicasets: resourceByPlural('replicasets'),
  daemonsets: resourceByPlural('daemonsets'),
  deployments: resourceByPlural('deployments'),
  networkpolicies: resourceByPlural('networkpolicies'),
  poddisruptionbudgets: resourceByPlural('poddisruptionbudgets'),
  ciliumendpoints: resourceByPlural('ciliumendpoints'),
  ciliumnodes: resourceByPlural('ciliumnodes'),
} as const;

export interface SimClusterOptions extends StoreOptions {
  /** Cluster name used in kubeconfig and messages. */
  name?: string;
}

/**
 * The state of one simulated EKS + Cilium cluster: the Kubernetes objects (in the store), the
 * per-node Cilium agent facts that exec answers from, and the AWS-side facts (security groups).
 */
export class SimCluster {
  readonly name: string;
  readonly store: Store;
  readonly agents = new Map<string, AgentState>();
  aws: AwsState = { region: 'us-west-2', securityGroups: [], instanceSecurityGroups: {} };

  constructor(options: SimClusterOptions = {}) {
    this.name = options.name ?? 'sim';
    this.store = new Store(options);
  }

  /** The agent state for a Cilium agent pod, found by the node it runs on. */
  agentForPod(pod: Pod): AgentState | undefined {
    const isAgent = pod.metadata.labels?.['k8s-app'] === AGENT_LABEL['k8s-app'];
    return isAgent && pod.spec.nodeName ? this.agents.get(pod.spec.nodeName) : undefined;
  }
}
