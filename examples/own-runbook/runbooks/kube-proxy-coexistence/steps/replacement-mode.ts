import { defineStep, evidence, outcome } from 'cilium-responder/sdk';
import type { KubeProxyCoexistenceParams } from '../params.ts';
import { replacesKubeProxy } from '../replacement.ts';

/** What Cilium is configured to do about kube-proxy's job. */
export const replacementMode = defineStep<KubeProxyCoexistenceParams>({
  id: 'replacement-mode',
  title: "Cilium's kube-proxy replacement",
  run: async (ctx) => {
    const value = (await ctx.cilium.config())['kube-proxy-replacement'];
    const seen = evidence(
      `${ctx.cilium.namespace}/cilium-config`,
      `kube-proxy-replacement: ${value ?? '(unset)'}`,
    );
    return replacesKubeProxy(value)
      ? outcome('pass', 'Cilium replaces kube-proxy', { evidence: [seen] })
      : outcome('pass', 'Cilium leaves services to kube-proxy', { evidence: [seen] });
  },
});
