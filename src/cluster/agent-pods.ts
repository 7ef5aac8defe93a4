import { PackedAgents } from './packed-agents.ts';
import { isPodReady } from './pod-ready.ts';
import type { AgentPod, KubeObject } from './types.ts';

/** The label selector of the Cilium agent pods (the DaemonSet's), in `ctx.cilium.namespace`. */
export const AGENT_SELECTOR = 'k8s-app=cilium';
/** The agent's container in those pods. */
export const AGENT_CONTAINER = 'cilium-agent';

/** The fields of a pod that say where an agent runs and whether it is ready. */
interface PodFields {
  metadata: KubeObject['metadata'] & { deletionTimestamp?: string };
  spec?: { nodeName?: string };
  status?: {
    containerStatuses?: { name: string; containerID?: string }[];
  };
}

/** Agent pod fields plus what picks between two pods on one node (a rollout in progress). */
export interface AgentCandidate extends AgentPod {
  /** Being deleted (a rollout or a restart in progress). */
  deleting: boolean;
  /** The pod's creationTimestamp, ISO text. */
  createdAt: string;
}

/**
 * An agent pod's projection, or undefined for a pod not yet scheduled to a node: for listing the
 * agents as they are now, e.g. to see a restarted agent's replacement come up.
 *
 * @example
 * ```ts
 * const onNode = await ctx.kube.list(RESOURCES.pods, {
 *   namespace: ctx.cilium.namespace,
 *   labelSelector: AGENT_SELECTOR,
 *   fieldSelector: `spec.nodeName=${node}`,
 *   project: agentCandidate,
 * });
 * const replacement = onNode.find((agent) => agent?.ready && agent.uid !== oldUid);
 * ```
 */
export function agentCandidate(object: KubeObject): AgentCandidate | undefined {
  const pod = object as PodFields;
  const node = pod.spec?.nodeName;
  if (!node) return undefined;
  const containerId = pod.status?.containerStatuses?.find((c) => c.name === AGENT_CONTAINER)?.containerID;
  return {
    name: pod.metadata.name,
    namespace: pod.metadata.namespace ?? '',
    uid: pod.metadata.uid,
    node,
    ready: isPodReady(pod),
    ...(containerId ? { containerId } : {}),
    deleting: pod.metadata.deletionTimestamp !== undefined,
    createdAt: pod.metadata.creationTimestamp ?? '',
  };
}

/** Whether `a` better stands for its node than `b`: not being deleted, then ready, then newer. */
function preferred(a: AgentCandidate, b: AgentCandidate): boolean {
  if (a.deleting !== b.deleting) return !a.deleting;
  if (a.ready !== b.ready) return a.ready;
  return a.createdAt > b.createdAt;
}

/**
 * One agent per node, sorted by node name, packed (a list of 100,000 agents is held for a whole
 * run). The candidates that stand for their node are packed as they are, with no copy of each.
 */
export function agentsPerNode(candidates: readonly (AgentCandidate | undefined)[]): PackedAgents {
  const byNode = new Map<string, AgentCandidate>();
  for (const candidate of candidates) {
    if (!candidate) continue;
    const current = byNode.get(candidate.node);
    if (!current || preferred(candidate, current)) byNode.set(candidate.node, candidate);
  }
  const chosen = [...byNode.values()];
  byNode.clear();
  return new PackedAgents(chosen.sort((a, b) => a.node.localeCompare(b.node)));
}
