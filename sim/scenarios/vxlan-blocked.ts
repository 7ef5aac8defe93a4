import { blockBetweenNodes } from './aws.ts';
import type { Scenario } from './scenario.ts';

/**
 * Incident 3: the nodes' security groups drop what the tunnel needs (by default all UDP, as in
 * the original incident), so cross-node pod traffic dies while the host probes still pass. The
 * agents' cilium-health results are derived from the changed groups when the build finishes.
 */
export const vxlanBlocked: Scenario = {
  description:
    'Cross-node traffic dropped in the tunnel: tunnel routing, node security groups without the tunnel port (or 4240/tcp, or ICMP), cilium-health failing between nodes.',
  presets: { routingMode: 'tunnel' },
  apply(builder, options) {
    if (options.routingMode !== 'tunnel') {
      throw new Error('vxlan-blocked needs routingMode "tunnel" (native routing does not tunnel)');
    }
    blockBetweenNodes(builder.cluster.aws, options.vxlanCause);
    builder.plan.tunnel = {
      cause: options.vxlanCause,
      protocol: options.tunnelProtocol,
      port: options.tunnelPort,
      securityGroups: [...new Set(Object.values(builder.cluster.aws.instanceSecurityGroups).flat())],
    };
  },
};
