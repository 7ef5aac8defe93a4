import { AgentPacker, type PackedAgents } from './packed-agents.ts';
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

/** What picks between two pods on one node, as plain numbers kept per pod listed. */
interface Standing {
  deleting: boolean;
  ready: boolean;
  /** creationTimestamp in ms, 0 when missing. */
  createdAt: number;
}

/** Whether `a` better stands for its node than `b`: not being deleted, then ready, then newer. */
function preferred(a: Standing, b: Standing): boolean {
  if (a.deleting !== b.deleting) return !a.deleting;
  if (a.ready !== b.ready) return a.ready;
  return a.createdAt > b.createdAt;
}

/**
 * One agent per node, sorted by node name, packed as the pods are listed: no candidate outlives
 * its page (a list of 100,000 agents is held for a whole run); per pod only its place, standing
 * and its node's entry are kept until the list ends.
 */
export class AgentsPerNode {
  readonly #packer = new AgentPacker();
  readonly #byNode = new Map<string, number>();
  /** Per pod listed: bit 0 deleting, bit 1 ready. */
  readonly #flags: number[] = [];
  readonly #createdAt: number[] = [];

  add(candidate: AgentCandidate | undefined): void {
    if (!candidate) return;
    const index = this.#packer.add(candidate);
    this.#flags.push((candidate.deleting ? 1 : 0) | (candidate.ready ? 2 : 0));
    this.#createdAt.push(Date.parse(candidate.createdAt) || 0);
    const current = this.#byNode.get(candidate.node);
    if (current === undefined || preferred(this.#standing(index), this.#standing(current)))
      this.#byNode.set(candidate.node, index);
  }

  packed(): PackedAgents {
    const chosen = [...this.#byNode].sort(([a], [b]) => a.localeCompare(b)).map(([, index]) => index);
    this.#byNode.clear();
    return this.#packer.packed(chosen);
  }

  #standing(index: number): Standing {
    const flags = this.#flags[index] ?? 0;
    return { deleting: (flags & 1) === 1, ready: (flags & 2) === 2, createdAt: this.#createdAt[index] ?? 0 };
  }
}

/** One agent per node of `candidates`, sorted by node name, packed. */
export function agentsPerNode(candidates: Iterable<AgentCandidate | undefined>): PackedAgents {
  const perNode = new AgentsPerNode();
  for (const candidate of candidates) perNode.add(candidate);
  return perNode.packed();
}
