import { z } from 'cilium-responder/sdk';

export const params = z.object({
  /** Where the kube-proxy DaemonSet runs (the EKS add-on puts it in kube-system). */
  namespace: z.string().min(1).default('kube-system'),
  /** The DaemonSet's name. */
  daemonSet: z.string().min(1).default('kube-proxy'),
});

export type Params = z.output<typeof params>;
