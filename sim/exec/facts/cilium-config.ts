import { CILIUM_NAMESPACE, R, type SimCluster } from '../../cluster.ts';
import type { KubeObject } from '../../objects.ts';

/** The `cilium-config` ConfigMap's data, or empty when the scenario did not create one. */
export function ciliumConfig(cluster: SimCluster): Record<string, string> {
  const configMap = cluster.store.get<KubeObject & { data?: Record<string, string> }>(
    R.configmaps,
    CILIUM_NAMESPACE,
    'cilium-config',
  );
  return configMap?.data ?? {};
}

/** Cilium's cluster name (`cluster-name`, default `default`), the prefix of node names in health and status. */
export function ciliumClusterName(cluster: SimCluster): string {
  return ciliumConfig(cluster)['cluster-name'] || 'default';
}

export interface RoutingFacts {
  mode: 'Native' | 'Tunnel';
  tunnelProtocol: string;
}

/**
 * Routing as the agent reports it: `routing-mode` (older releases: `tunnel`=disabled|vxlan|geneve);
 * ENI IPAM defaults to native routing, everything else to a VXLAN tunnel.
 */
export function routingFacts(cluster: SimCluster): RoutingFacts {
  const config = ciliumConfig(cluster);
  const tunnelProtocol =
    config['tunnel-protocol'] || (config.tunnel && config.tunnel !== 'disabled' ? config.tunnel : 'vxlan');
  const explicit =
    config['routing-mode'] ??
    (config.tunnel === 'disabled' ? 'native' : config.tunnel ? 'tunnel' : undefined);
  const mode = explicit ?? (config.ipam === 'eni' ? 'native' : 'tunnel');
  return { mode: mode === 'native' ? 'Native' : 'Tunnel', tunnelProtocol };
}
