import { type PodFacts, podKey } from '../../src/engine/pod-facts.ts';
import type { DoneAction, Finding } from '../../src/engine/types.ts';
import { explainHold } from './hold.ts';
import type { UnmanagedPod } from './scan.ts';
import { deletePodCommand, formatAge } from './wording.ts';

/** Finding codes; stable, because fingerprints are built from them. */
export const CODES = {
  unmanagedPod: 'UNMANAGED_POD',
  replacementUnmanaged: 'REPLACEMENT_UNMANAGED',
  replacementMissing: 'REPLACEMENT_MISSING',
  operatorRestartDisabled: 'OPERATOR_RESTART_DISABLED',
  operatorSelectorNarrow: 'OPERATOR_SELECTOR_NARROW',
  operatorConfigInvalid: 'OPERATOR_CONFIG_INVALID',
} as const;

/** Why a pod is still unmanaged, and how a person fixes it. */
export interface Explanation {
  reason: string;
  fix: string;
}

function ownerText(pod: PodFacts): string {
  if (pod.mirror) return 'static pod';
  return pod.owner ? `${pod.owner.kind} ${pod.owner.name}` : 'no controller';
}

/** For a pod the responder restarts: what happens, and the same by hand. */
export function restartExplanation(pod: PodFacts): Explanation {
  return {
    reason: 'the responder restarts it by eviction',
    fix: `${deletePodCommand(pod)} (its ${pod.owner?.kind ?? 'controller'} recreates it and Cilium manages the new pod)`,
  };
}

/** For a pod the actuator did not evict: its own words, and what to do about it. */
export function resultExplanation(result: DoneAction, pod: PodFacts): Explanation {
  const detail = result.detail ?? 'no reason given';
  switch (result.outcome) {
    case 'blocked':
      return {
        reason: `eviction blocked: ${detail}`,
        fix: `Wait until its PodDisruptionBudget allows a disruption (kubectl -n ${pod.namespace} get pdb), or accept the disruption: ${deletePodCommand(pod)}`,
      };
    case 'skipped':
      return { reason: `not evicted: ${detail}`, fix: `Run the runbook again, or: ${deletePodCommand(pod)}` };
    case 'planned':
      return {
        reason: `eviction not approved yet (${detail})`,
        fix: `Approve the plan, or: ${deletePodCommand(pod)}`,
      };
    case 'failed':
      return { reason: `eviction failed: ${detail}`, fix: deletePodCommand(pod) };
    case 'done':
      return {
        reason: 'evicted, but still listed',
        fix: `Check that it terminates: kubectl -n ${pod.namespace} get pod ${pod.name}`,
      };
  }
}

export function holdExplanation(pod: UnmanagedPod, ciliumNamespace: string): Explanation | undefined {
  return pod.hold ? explainHold(pod.hold, pod, ciliumNamespace) : undefined;
}

export function unmanagedPodFinding(pod: UnmanagedPod, { reason, fix }: Explanation): Finding {
  return {
    code: CODES.unmanagedPod,
    target: podKey(pod),
    severity: 'critical',
    message: `No CiliumEndpoint for ${formatAge(pod.ageSeconds)} on ${pod.node} (${ownerText(pod)}); ${reason}`,
    fix,
  };
}

export function replacementMissingFinding(evicted: PodFacts, waited: string): Finding {
  return {
    code: CODES.replacementMissing,
    target: podKey(evicted),
    severity: 'warning',
    message: `Evicted, but ${ownerText(evicted)} made no replacement within ${waited}`,
    fix: `kubectl -n ${evicted.namespace} get events --field-selector involvedObject.name=${evicted.owner?.name ?? evicted.name}`,
  };
}

export function replacementUnmanagedFinding(
  evicted: PodFacts,
  replacement: PodFacts,
  waited: string,
): Finding {
  return {
    code: CODES.replacementUnmanaged,
    target: podKey(replacement),
    severity: 'critical',
    message: `Replacement of ${evicted.name} on ${replacement.node} has no CiliumEndpoint after ${waited}: Cilium does not manage it either`,
    fix: `Check the Cilium agent on ${replacement.node} (cilium-dbg status), then: ${deletePodCommand(replacement)}`,
  };
}
