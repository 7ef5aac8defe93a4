import type { AgentPod } from '../../../src/cluster/types.ts';

/** The cgroup root the agents mount, and one agent pod, as the cgroup-root-hooks tests use them. */
export const ROOT = '/run/cilium/cgroupv2';
export const AGENT: AgentPod = {
  name: 'cilium-x7k2p',
  namespace: 'kube-system',
  uid: 'u-1',
  node: 'ip-10-0-1-10',
  ready: true,
  containerId: 'containerd://9f2c',
};
