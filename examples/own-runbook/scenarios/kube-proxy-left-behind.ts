import { defineScenario } from 'cilium-responder/testing';

/** EKS's default: the kube-proxy add-on still installed after Cilium took over its job. */
export default defineScenario({
  name: 'kube-proxy-left-behind',
  description: 'kube-proxy add-on still running while Cilium replaces kube-proxy',
  options: { kubeProxy: true, kubeProxyReplacement: 'true' },
});
