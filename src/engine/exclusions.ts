import { type LabelMatcher, parseLabelSelector } from '../cluster/label-selector.ts';
import type { PodFacts } from './pod-facts.ts';

/** The label the AWS VPC CNI DaemonSet always carries: its pods are never touched. */
export const AWS_NODE_SELECTOR = 'k8s-app=aws-node';
/** The taint Cilium keeps on a node until its agent is ready (pods scheduled before then go unmanaged). */
export const AGENT_NOT_READY_TAINT = 'node.cilium.io/agent-not-ready';

/**
 * Why the responder leaves an unmanaged pod alone. The actuator enforces these rules on every
 * write; runbooks use the same function to say up front what will and will not happen, and why.
 */
export type Hold =
  | { kind: 'excluded'; selector: string }
  | { kind: 'host-network' }
  | { kind: 'mirror' }
  | { kind: 'agent-not-ready'; node: string; cause: 'taint' | 'not-ready' | 'missing' }
  | { kind: 'no-controller' };

/** What the nodes' Cilium agents look like, for the pods on them. */
export interface AgentHealth {
  /** Node name → whether its agent pod is Ready; nodes without an agent pod are absent. */
  agentReady: ReadonlyMap<string, boolean>;
  /** Nodes that still carry the agent-not-ready taint. */
  tainted: ReadonlySet<string>;
}

/** A label selector whose pods the responder never touches, parsed. */
export interface Exclusion {
  /** As configured, e.g. `app=payments`. */
  selector: string;
  /** Whether a pod's labels match it. */
  matches: LabelMatcher;
}

/**
 * aws-node's selector and the configured ones, parsed once; a bad one is a config error that names it.
 * With {@link holdFor}, a runbook says up front which pods the actuator will leave alone, and why.
 *
 * @example
 * ```ts
 * const excluded = exclusions(ctx.limits.excludeSelectors);
 * const hold = holdFor(pod, agents, excluded);
 * if (hold) ctx.log.info(`leaving ${podKey(pod)} alone`, { hold: hold.kind });
 * ```
 */
export function exclusions(excludeSelectors: readonly string[]): Exclusion[] {
  return [AWS_NODE_SELECTOR, ...excludeSelectors].map((selector) => {
    try {
      return { selector, matches: parseLabelSelector(selector) };
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new Error(`invalid exclude selector "${selector}": ${reason}`);
    }
  });
}

/**
 * The first rule that keeps the responder's hands off this pod, or undefined when it may be
 * restarted: the same rules the actuator enforces on every eviction.
 *
 * @example
 * ```ts
 * const restartable = pods.filter((pod) => holdFor(pod, agents, exclusions(ctx.limits.excludeSelectors)) === undefined);
 * ```
 */
export function holdFor(
  pod: PodFacts,
  agents: AgentHealth,
  excluded: readonly Exclusion[],
): Hold | undefined {
  const exclusion = excluded.find(({ matches }) => matches(pod.labels));
  if (exclusion) return { kind: 'excluded', selector: exclusion.selector };
  if (pod.hostNetwork) return { kind: 'host-network' };
  if (pod.mirror) return { kind: 'mirror' };
  if (agents.tainted.has(pod.node)) return { kind: 'agent-not-ready', node: pod.node, cause: 'taint' };
  const ready = agents.agentReady.get(pod.node);
  if (ready === undefined) return { kind: 'agent-not-ready', node: pod.node, cause: 'missing' };
  if (!ready) return { kind: 'agent-not-ready', node: pod.node, cause: 'not-ready' };
  // Eviction deletes the pod; without a controller nothing brings it back.
  if (!pod.owner) return { kind: 'no-controller' };
  return undefined;
}
