import type { Runbook } from '../src/engine/types.ts';
import { type HostIdentityParams, hostIdentityParams } from './host-identity/params.ts';
import { hostMarkRule } from './host-identity/steps/host-mark-rule.ts';
import { iptablesConfig } from './host-identity/steps/iptables-config.ts';
import { policyDrops } from './host-identity/steps/policy-drops.ts';
import { restartAgents } from './host-identity/steps/restart-agents.ts';
import { verifyRule } from './host-identity/steps/verify-rule.ts';

export { type Drop, isWorldIdentity, parseDrops } from './host-identity/drops.ts';
export { hasHostMarkRule, hasOutputFeeder } from './host-identity/host-mark.ts';
export { type IptablesSave, IptablesSaveError, parseIptablesSave } from './host-identity/iptables-save.ts';

/**
 * Domain incident 4: host traffic identified as `world`. Without Cilium's host mark rule the
 * kubelet's probes reach pods as world, and a NetworkPolicy that restricts ingress drops them.
 */
export const hostIdentity: Runbook<HostIdentityParams> = {
  id: 'host-identity',
  title: 'Host traffic identified as world',
  summary:
    'Finds agents without the iptables rule that marks host traffic, and the pods whose probes their policies drop as world; restarts agents only with approval.',
  doc: 'runbooks/host-identity.md',
  params: hostIdentityParams,
  answers: ['CiliumPolicyDeniedDrops', 'CiliumHostMarkRuleMissing'],
  steps: [iptablesConfig, hostMarkRule, policyDrops, restartAgents, verifyRule],
};
