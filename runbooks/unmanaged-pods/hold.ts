import { AGENT_NOT_READY_TAINT, type Hold, type PodFacts } from '../../sdk/index.ts';
import { deletePodCommand } from './wording.ts';

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
    case 'host-network':
      return {
        reason: 'it uses the host network, which Cilium never manages',
        fix: 'Nothing to do: hostNetwork pods have no CiliumEndpoint by design',
      };
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
