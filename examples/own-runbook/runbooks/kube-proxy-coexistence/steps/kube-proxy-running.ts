import { defineStep, evidence, finding, isKubeError, outcome, RESOURCES } from 'cilium-responder/sdk';
import type { KubeProxyCoexistenceParams } from '../params.ts';
import { replacesKubeProxy } from '../replacement.ts';

interface DaemonSetStatus {
  desiredNumberScheduled?: number;
  numberReady?: number;
}

/**
 * Both kube-proxy and Cilium program service rules when kube-proxy is still running beside the
 * replacement: kube-proxy's iptables rules keep answering for services Cilium has moved on from.
 */
export const kubeProxyRunning = defineStep<KubeProxyCoexistenceParams>({
  id: 'kube-proxy-running',
  title: 'kube-proxy still running',
  when: async (ctx) =>
    replacesKubeProxy((await ctx.cilium.config())['kube-proxy-replacement'])
      ? undefined
      : "Cilium's kube-proxy replacement is off: kube-proxy is needed",
  run: async (ctx) => {
    const { namespace, daemonSet } = ctx.params;
    const target = `${namespace}/${daemonSet}`;
    let status: DaemonSetStatus;
    try {
      const found = await ctx.kube.get(RESOURCES.daemonsets, namespace, daemonSet);
      status = (found.status ?? {}) as DaemonSetStatus;
    } catch (error) {
      if (isKubeError(error, 'not-found'))
        return outcome('pass', `no DaemonSet ${target}: kube-proxy is gone`);
      throw error;
    }
    const ready = status.numberReady ?? 0;
    const nodes = await ctx.kube.list(RESOURCES.pods, {
      namespace,
      labelSelector: 'k8s-app=kube-proxy',
      project: (pod) => String((pod.spec as { nodeName?: string } | undefined)?.nodeName ?? '(unscheduled)'),
    });
    const seen = [
      evidence(`DaemonSet ${target}`, `${ready} of ${status.desiredNumberScheduled ?? 0} pods ready`),
      evidence(`pods k8s-app=kube-proxy in ${namespace}`, nodes.join(', ') || 'none'),
    ];
    if (ready === 0) return outcome('pass', `${target} has no ready pods`, { evidence: seen });
    return outcome('fail', `kube-proxy runs on ${ready} nodes beside Cilium's replacement`, {
      evidence: seen,
      findings: [
        finding({
          code: 'KUBE_PROXY_BESIDE_REPLACEMENT',
          target,
          message: `kube-proxy runs on ${ready} nodes while Cilium replaces it: both program service rules`,
          fix:
            `aws eks delete-addon --cluster-name ${ctx.cluster} --addon-name kube-proxy ` +
            `(or, if not an add-on: kubectl -n ${namespace} delete daemonset ${daemonSet}); ` +
            'then on each node: iptables-save | grep -v KUBE | iptables-restore',
        }),
      ],
    });
  },
});
