import { type LabelMatcher, parseLabelSelector } from '../../src/cluster/label-selector.ts';
import { AGENT_NOT_READY_TAINT, AWS_NODE_SELECTOR } from '../../src/engine/actuator.ts';
import type { PodFacts } from './pod-facts.ts';
import { deletePodCommand } from './wording.ts';

/**
 * Why the responder leaves an unmanaged pod alone. The actuator enforces the same rules on every
 * write; knowing them here lets a finding say up front what will and will not happen, and why.
 */
export type Hold =
  | { kind: 'excluded'; selector: string }
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

export interface Exclusion {
  selector: string;
  matches: LabelMatcher;
}

/** aws-node's selector and the configured ones, parsed once; a bad one is a config error that names it. */
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

export function holdFor(
  pod: PodFacts,
  agents: AgentHealth,
  excluded: readonly Exclusion[],
): Hold | undefined {
  const exclusion = excluded.find(({ matches }) => matches(pod.labels));
  if (exclusion) return { kind: 'excluded', selector: exclusion.selector };
  if (pod.mirror) return { kind: 'mirror' };
  if (agents.tainted.has(pod.node)) return { kind: 'agent-not-ready', node: pod.node, cause: 'taint' };
  const ready = agents.agentReady.get(pod.node);
  if (ready === undefined) return { kind: 'agent-not-ready', node: pod.node, cause: 'missing' };
  if (!ready) return { kind: 'agent-not-ready', node: pod.node, cause: 'not-ready' };
  // Eviction deletes the pod; without a controller nothing brings it back.
  if (!pod.owner) return { kind: 'no-controller' };
  return undefined;
}

const AGENT_CAUSE = {
  taint: `still has the ${AGENT_NOT_READY_TAINT} taint`,
  'not-ready': 'has a Cilium agent that is not ready',
  missing: 'has no Cilium agent pod',
} as const;

/** Why it is left alone (one clause) and how a person fixes it. */
export function explainHold(
  hold: Hold,
  pod: PodFacts,
  ciliumNamespace: string,
): { reason: string; fix: string } {
  const deleteIt = deletePodCommand(pod);
  switch (hold.kind) {
    case 'excluded':
      return {
        reason: `excluded by selector ${hold.selector}`,
        fix: `Restart it by hand if that is safe: ${deleteIt}`,
      };
    case 'mirror':
      return {
        reason: 'only the kubelet on its node can restart it',
        fix: `On ${pod.node}, move its manifest out of the kubelet's static pod directory and back (or restart the kubelet)`,
      };
    case 'agent-not-ready':
      return {
        reason: `node ${hold.node} ${AGENT_CAUSE[hold.cause]}; a restart there would not help`,
        fix: `Fix the agent first (kubectl -n ${ciliumNamespace} get pods -l k8s-app=cilium --field-selector spec.nodeName=${hold.node}, then its logs), then: ${deleteIt}`,
      };
    case 'no-controller':
      return {
        reason: 'no controller owns it, so nothing would recreate it after an eviction',
        fix: `Save it (kubectl -n ${pod.namespace} get pod ${pod.name} -o yaml > ${pod.name}.yaml), delete it and create it again`,
      };
  }
}
