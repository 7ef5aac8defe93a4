import { defineRunbook } from '../../sdk/index.ts';
import { hostIdentityParams } from './params.ts';
import { newFacts } from './shared-state.ts';
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
export const hostIdentity = defineRunbook({
  id: 'host-identity',
  title: 'Host traffic identified as world',
  summary:
    'Finds agents without the iptables rule that marks host traffic, and the pods whose probes their policies drop as world; restarts agents only with approval.',
  params: hostIdentityParams,
  answers: ['CiliumPolicyDeniedDrops', 'CiliumHostMarkRuleMissing'],
  state: newFacts,
  steps: [iptablesConfig, hostMarkRule, policyDrops, restartAgents, verifyRule],
});
