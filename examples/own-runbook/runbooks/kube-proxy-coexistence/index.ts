import { defineRunbook } from 'cilium-responder/sdk';
import { kubeProxyCoexistenceParams } from './params.ts';
import { kubeProxyRunning } from './steps/kube-proxy-running.ts';
import { replacementMode } from './steps/replacement-mode.ts';

/** kube-proxy left running after Cilium took over its job (read-only: reports the fix). */
export default defineRunbook({
  id: 'kube-proxy-coexistence',
  title: "kube-proxy beside Cilium's replacement",
  summary: 'Reports the kube-proxy DaemonSet still running while Cilium replaces kube-proxy, with the fix.',
  params: kubeProxyCoexistenceParams,
  answers: ['KubeProxyBesideCiliumReplacement'],
  // Beyond the responder's own reads (pods, cilium-config): the kube-proxy DaemonSet.
  permissions: [{ apiGroups: ['apps'], resources: ['daemonsets'], verbs: ['get'] }],
  steps: [replacementMode, kubeProxyRunning],
});
