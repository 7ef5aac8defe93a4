import type { SimCluster } from '../../cluster.ts';
import { ciliumClusterName } from './cilium-config.ts';

/** The nodes that run a Cilium agent, sorted, as the agent's node discovery sees them. */
export function ciliumNodeNames(cluster: SimCluster): string[] {
  return [...cluster.agents.keys()].sort();
}

/** Cilium's node full name, `<cluster-name>/<node>`, used by cilium-health and the status cluster list. */
export function ciliumNodeFullName(cluster: SimCluster, nodeName: string): string {
  return `${ciliumClusterName(cluster)}/${nodeName}`;
}
