import { type DoneAction, type Finding, type Mode, type PodFacts, podKey } from '../../sdk/index.ts';
import { explainHold } from './hold.ts';
import type { UnmanagedPod } from './scan.ts';
import { deletePodCommand, formatAge } from './wording.ts';

/** Finding codes; stable, because fingerprints are built from them. */
export const CODES = {
  unmanagedPod: 'UNMANAGED_POD',
  replacementUnmanaged: 'REPLACEMENT_UNMANAGED',
  replacementMissing: 'REPLACEMENT_MISSING',
  replacementPending: 'REPLACEMENT_PENDING',
  operatorRestartDisabled: 'OPERATOR_RESTART_DISABLED',
  operatorSelectorNarrow: 'OPERATOR_SELECTOR_NARROW',
  operatorConfigInvalid: 'OPERATOR_CONFIG_INVALID',
  evictionUnconfirmed: 'EVICTION_UNCONFIRMED',
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

/** The by-hand restart, and why it works. */
function byHand(pod: PodFacts): string {
  return `${deletePodCommand(pod)} (its ${pod.owner?.kind ?? 'controller'} recreates it and Cilium manages the new pod)`;
}

/** For a pod the restart step will consider: that step says what happened to it. */
export function restartExplanation(pod: PodFacts): Explanation {
  return { reason: 'to restart by eviction (see restart-unmanaged)', fix: byHand(pod) };
}

/** For a pod the restart step evicted: what was done (the verify step says whether it worked). */
export function evictedExplanation(pod: PodFacts): Explanation {
  return {
    reason: `evicted; its ${pod.owner?.kind ?? 'controller'} recreates it`,
    fix: `Check its replacement: kubectl -n ${pod.namespace} get cep`,
  };
}

/** For a pod the actuator did not evict (or only planned to): its own words, and what to do. */
export function resultExplanation(result: DoneAction, pod: PodFacts, mode: Mode): Explanation {
  const detail = result.detail ?? 'no reason given';
  switch (result.outcome) {
    case 'blocked':
      return {
        reason: `eviction blocked: ${detail}`,
        fix: `Its PodDisruptionBudget allows no disruption now (kubectl -n ${pod.namespace} get pdb): wait for the budget, or scale the workload up so it allows one. Deleting bypasses the budget: ${deletePodCommand(pod)}`,
      };
    case 'skipped':
      return { reason: `not evicted: ${detail}`, fix: `Run the runbook again, or: ${deletePodCommand(pod)}` };
    case 'planned':
      return mode === 'dry-run'
        ? {
            reason: 'dry-run: the responder would restart it by eviction (its budgets allow it)',
            // Each reader says how to ask for the run that writes (the report model adds it).
            fix: byHand(pod),
          }
        : {
            reason: `eviction awaiting approval (${detail})`,
            fix: `Approve the plan, or: ${deletePodCommand(pod)}`,
          };
    case 'failed':
      return { reason: `eviction failed: ${detail}`, fix: deletePodCommand(pod) };
    case 'unconfirmed':
      return {
        reason: `eviction unconfirmed: ${detail}; verify-replacements checks whether it happened`,
        fix: `Check whether it is gone: kubectl -n ${pod.namespace} get pod ${pod.name}; if it is still there: ${deletePodCommand(pod)}`,
      };
    case 'done':
      return {
        reason: 'evicted, but still listed',
        fix: `Check that it terminates: kubectl -n ${pod.namespace} get pod ${pod.name}`,
      };
  }
}

/** For a pod whose eviction's answer was lost, seen still there: it did not happen. */
export function notEvictedExplanation(pod: PodFacts, seen: string): Explanation {
  return {
    reason: `its eviction's answer was lost, and ${seen}`,
    fix: `Run the runbook again, or: ${deletePodCommand(pod)}`,
  };
}

/** An eviction whose answer was lost, on a pod the verify step could not look at. */
export function evictionUncheckedFinding(pod: PodFacts, seen: string): Finding {
  return {
    code: CODES.evictionUnconfirmed,
    target: podKey(pod),
    severity: 'warning',
    message: `Its eviction may have happened (the answer was lost); ${seen}`,
    fix: `kubectl -n ${pod.namespace} get pod ${pod.name} (gone or Terminating: it was evicted; still Running: ${deletePodCommand(pod)})`,
  };
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
  if (replacement.node === '') {
    // Not scheduled yet: no agent has seen it, so no endpoint is expected.
    return {
      code: CODES.replacementPending,
      target: podKey(replacement),
      severity: 'warning',
      message: `Replacement of ${evicted.name} is still Pending after ${waited}, waiting to be scheduled; Cilium manages it once it runs on a node`,
      fix: `kubectl -n ${replacement.namespace} describe pod ${replacement.name} (its Events say why it is not scheduled)`,
    };
  }
  return {
    code: CODES.replacementUnmanaged,
    target: podKey(replacement),
    severity: 'critical',
    message: `Replacement of ${evicted.name} on ${replacement.node} has no CiliumEndpoint after ${waited}: Cilium does not manage it either`,
    fix: `Check the Cilium agent on ${replacement.node} (cilium-dbg status), then: ${deletePodCommand(replacement)}`,
  };
}
