import { defineScenario } from 'cilium-responder/testing';

/** The migration done: kube-proxy deleted, Cilium replaces it. */
export default defineScenario({
  name: 'kube-proxy-removed',
  description: 'kube-proxy add-on deleted; Cilium replaces kube-proxy',
  options: { kubeProxy: false, kubeProxyReplacement: 'true' },
});
