import { defineScenario } from 'cilium-responder/testing';

/** Cilium beside kube-proxy on purpose: kube-proxy does the services. */
export default defineScenario({
  name: 'replacement-off',
  description: "kube-proxy running; Cilium's kube-proxy replacement off",
  options: { kubeProxy: true, kubeProxyReplacement: 'false' },
});
