import { z } from 'cilium-responder/sdk';

export const kubeProxyCoexistenceParams = z.object({
  // The descriptions are what `responder run kube-proxy-coexistence --help` prints.
  namespace: z
    .string()
    .min(1)
    .default('kube-system')
    .describe('where the kube-proxy DaemonSet runs (the EKS add-on puts it in kube-system)'),
  daemonSet: z.string().min(1).default('kube-proxy').describe("the kube-proxy DaemonSet's name"),
});

export type KubeProxyCoexistenceParams = z.output<typeof kubeProxyCoexistenceParams>;
