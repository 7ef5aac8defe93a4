import type { Runbook } from '../../src/engine/types.ts';
import { type HostIdentityParams, hostIdentityParams } from './params.ts';
import { type HostIdentityFacts, newFacts } from './shared-state.ts';
import { hostMarkRule } from './steps/host-mark-rule.ts';
import { iptablesConfig } from './steps/iptables-config.ts';
import { policyDrops } from './steps/policy-drops.ts';
import { restartAgents } from './steps/restart-agents.ts';
import { verifyRule } from './steps/verify-rule.ts';

export { type Drop, isWorldIdentity, parseDrops } from './drops.ts';
export { hasHostMarkRule, hasOutputFeeder } from './host-mark.ts';
export { type IptablesSave, IptablesSaveError, parseIptablesSave } from './iptables-save.ts';

/**
 * Domain incident 4: host traffic identified as `world`. Without Cilium's host mark rule the
 * kubelet's probes reach pods as world, and a NetworkPolicy that restricts ingress drops them.
 */
export const hostIdentity: Runbook<HostIdentityParams, HostIdentityFacts> = {
  id: 'host-identity',
  title: 'Host traffic identified as world',
  summary:
    'Finds agents without the iptables rule that marks host traffic, and the pods whose probes their policies drop as world; restarts agents only with approval.',
  doc: 'runbooks/host-identity/README.md',
  params: hostIdentityParams,
  answers: ['CiliumPolicyDeniedDrops', 'CiliumHostMarkRuleMissing'],
  newState: newFacts,
  steps: [iptablesConfig, hostMarkRule, policyDrops, restartAgents, verifyRule],
};
