import type { Finding } from '../../sdk/index.ts';
import type { MissingRule } from './shared-state.ts';

export const IPTABLES_RULES_DISABLED = 'IPTABLES_RULES_DISABLED';
export const HOST_MARK_RULE_MISSING = 'HOST_MARK_RULE_MISSING';
export const POLICY_DENIED_FROM_HOST = 'POLICY_DENIED_FROM_HOST';
export const POLICY_DENIED_FROM_WORLD = 'POLICY_DENIED_FROM_WORLD';

const ROLLOUT = 'kubectl -n kube-system rollout restart ds/cilium';

export const ENABLE_RULES_FIX = `Set install-iptables-rules to "true" in cilium-config (Helm: installIptablesRules=true), then restart the agents: ${ROLLOUT}`;

const WHAT_IS_MISSING: Record<MissingRule['state'], string> = {
  'rule-missing': 'CILIUM_OUTPUT has no "cilium: host->any mark as from host" rule',
  'no-cilium-chains': 'Cilium installed no iptables chains (no CILIUM_OUTPUT)',
  'feeder-missing': 'OUTPUT does not jump to CILIUM_OUTPUT, so the host mark rule never applies',
};

/** An agent whose node sends host traffic (kubelet probes) unmarked, so Cilium sees it as world. */
export function hostMarkFinding(missing: MissingRule, installRules: boolean, note = ''): Finding {
  const { agent, state } = missing;
  return {
    code: HOST_MARK_RULE_MISSING,
    target: agent.node,
    severity: 'critical',
    message: `${WHAT_IS_MISSING[state]}, so host traffic (kubelet probes) reaches pods as world${note}`,
    fix: installRules
      ? `cilium-config already says install-iptables-rules=true; restart the agent so it installs the rule: kubectl -n ${agent.namespace} delete pod ${agent.name} (or ${ROLLOUT})`
      : ENABLE_RULES_FIX,
  };
}
