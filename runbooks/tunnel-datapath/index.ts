import { defineRunbook } from '../../sdk/index.ts';
import { tunnelDatapathParams } from './params.ts';
import { nodeHealthStep } from './steps/node-health.ts';
import { routingConfigStep } from './steps/routing-config.ts';
import { securityGroupsStep } from './steps/security-groups.ts';

export { type HealthReport, parseCiliumHealth } from './health.ts';
export type { TunnelDatapathParams } from './params.ts';

/** Reads the node security groups through the cluster's AWS side, when it has one. */
export const tunnelDatapath = defineRunbook({
  id: 'tunnel-datapath',
  title: 'Cross-node traffic dropped in the tunnel',
  summary:
    'Checks the tunnel settings, cilium-health node-to-node probes, and whether the node security groups allow the tunnel port, 4240/tcp and ICMP between nodes.',
  params: tunnelDatapathParams,
  answers: ['CiliumUnreachableNodes', 'CiliumNodeConnectivityDown'],
  steps: [routingConfigStep, nodeHealthStep, securityGroupsStep],
});
