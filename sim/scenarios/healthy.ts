import type { Scenario } from './scenario.ts';

export const healthy: Scenario = {
  description:
    'A healthy EKS + Cilium cluster: agents ready, every pod managed (CEP), socket hooks on the host root, host mark rule present, cilium-health all OK, security groups open for the tunnel, health port and ICMP.',
  // The base cluster is the healthy cluster: nothing to add.
  apply() {},
};
