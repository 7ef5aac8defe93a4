import { defineStep, type Finding, outcome, statusFor } from '../../../sdk/index.ts';
import { ENABLE_RULES_FIX, IPTABLES_RULES_DISABLED } from '../findings.ts';
import type { HostIdentityParams } from '../params.ts';
import { facts, type HostIdentityFacts } from '../shared-state.ts';

const KEY = 'install-iptables-rules';

/** cilium-config `install-iptables-rules`: "false" leaves host traffic unmarked on every node. */
export const iptablesConfig = defineStep<HostIdentityParams, HostIdentityFacts>({
  id: 'iptables-config',
  title: 'Cilium installs its iptables rules',
  writes: false,
  async run(ctx) {
    const value = (await ctx.cilium.config())[KEY];
    const installRules = value !== 'false';
    facts(ctx).installRules = installRules;
    const findings: Finding[] = installRules
      ? []
      : [
          {
            code: IPTABLES_RULES_DISABLED,
            target: 'cilium-config',
            severity: 'critical',
            message: `${KEY} is "false": agents do not mark host traffic, so kubelet probes reach pods as world`,
            fix: ENABLE_RULES_FIX,
          },
        ];
    return outcome(statusFor(findings), installRules ? `${KEY} is on` : `${KEY} is "false"`, {
      findings,
      evidence: [
        {
          source: `${ctx.cilium.namespace}/cilium-config`,
          text: `${KEY}=${value ?? '(unset; the agent defaults to true)'}`,
        },
      ],
    });
  },
});
