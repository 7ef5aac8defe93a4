import { R, type SimCluster } from '../sim/cluster.ts';
import type { Pod } from '../sim/objects.ts';
import { buildCluster } from '../sim/scenarios/index.ts';

export const PODS_PER_NODE = 30;

/** One node in this many is broken each way in the broken cluster. */
const BROKEN_ONE_IN = 100;

/** Every agent healthy, every pod with its CiliumEndpoint: the scan finds nothing, so it lists no agents. */
export function healthyCluster(nodes: number): SimCluster {
  return buildCluster(['scale'], { nodes, podsPerNode: PODS_PER_NODE });
}

export interface BrokenCluster {
  cluster: SimCluster;
  /** Pods left without a CiliumEndpoint. */
  unmanagedPods: number;
  /** Agents whose socket-LB hooks sit on their own container's cgroup. */
  hooksOnContainer: number;
  /** Agents on the host's root whose hooks stayed on a container scope: their walks find them there. */
  hooksGone: number;
}

/**
 * The same cluster with each incident the two runbooks look for, on 1% of the nodes each, so every
 * path of theirs runs: the scan finds unmanaged pods and so lists the agents and the nodes; the
 * cgroup check meets agents with the hooks on their container's cgroup, and agents whose host
 * root lost them (after a restart into the host namespace), whose walks list every pod's scope.
 */
export function brokenCluster(nodes: number): BrokenCluster {
  const share = Math.max(1, Math.floor(nodes / BROKEN_ONE_IN));
  const cluster = buildCluster(['scale', 'unmanaged-pods', 'cgroup-private-ns'], {
    nodes,
    podsPerNode: PODS_PER_NODE,
    brokenCgroupNodes: share,
  });
  const nodeNames = [...cluster.agents.keys()];
  // Pods on these nodes started before their agent was ready: no endpoints.
  const withoutEndpoints = new Set(nodeNames.slice(share, 2 * share));
  const orphaned = cluster.store.list(R.pods, {
    filter: (pod) => withoutEndpoints.has((pod as Pod).spec.nodeName ?? '') && !(pod as Pod).spec.hostNetwork,
  }).items;
  let unmanagedPods = 0;
  for (const pod of orphaned) {
    const { namespace, name } = pod.metadata;
    if (cluster.store.get(R.ciliumendpoints, namespace, name) === undefined) continue;
    cluster.store.delete(R.ciliumendpoints, namespace, name);
    unmanagedPods++;
  }
  // Restarted into the host namespace, their hooks stayed on a container scope (as in the
  // cgroup-hooks-left-behind scenario). The status sample is the first ready agent; these sit past it.
  const hooksGone = nodeNames.slice(2 * share, 3 * share);
  for (const node of hooksGone) {
    const agent = cluster.agents.get(node);
    if (agent) agent.cgroup.hookCgroups = [agent.cgroup.containerPath];
  }
  return { cluster, unmanagedPods, hooksOnContainer: share, hooksGone: hooksGone.length };
}
