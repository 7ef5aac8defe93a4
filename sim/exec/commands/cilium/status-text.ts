import type { AgentState } from '../../../agent-state.ts';
import type { SimCluster } from '../../../cluster.ts';
import { tabwrite } from '../../format/tabwriter.ts';
import { healthStatusResponse } from '../cilium-health/health-response.ts';
import { clusterHealthSummary } from '../cilium-health/health-text.ts';
import { statusResponse } from './status-response.ts';

/**
 * `cilium-dbg status` without -o: the lines of pkg/client FormatStatusResponse for the fields the
 * simulated agent reports, then the cluster health summary, through tabwriter(2, 0, 3, ' ').
 */
export function statusText(cluster: SimCluster, agent: AgentState): string {
  const sr = statusResponse(cluster, agent);
  const kpr = sr['kube-proxy-replacement'];
  const lines: string[] = [];
  lines.push(`KVStore:\t${sr.kvstore.state}\t${sr.kvstore.msg ?? ''}`);
  lines.push(`Kubernetes:\t${sr.kubernetes.state}\t${sr.kubernetes.msg}`);
  lines.push(`Kubernetes APIs:\t["${[...sr.kubernetes['k8s-api-versions']].sort().join('", "')}"]`);
  const devices =
    kpr.mode === 'False'
      ? ''
      : `[${kpr.deviceList
          .map(
            (d) =>
              `${d.name} ${d.ip.join(' ')}${d.name === kpr.directRoutingDevice ? ' (Direct Routing)' : ''}`,
          )
          .join(', ')}]`;
  lines.push(`KubeProxyReplacement:\t${kpr.mode}\t${devices}`);
  lines.push(`Host firewall:\t${sr['host-firewall'].mode}`);
  lines.push(`Cilium:\t${sr.cilium.state}   ${sr.cilium.msg ?? ''}`);
  const nm = sr.nodeMonitor;
  lines.push(
    `NodeMonitor:\tListening for events on ${nm.cpus} CPUs with ${nm.npages}x${nm.pagesize} of shared memory`,
  );
  lines.push(`Cilium health daemon:\t${sr.cluster.ciliumHealth.state}\t${sr.cluster.ciliumHealth.msg ?? ''}`);
  lines.push(`IPAM:\t${sr.ipam.status}`);
  const routing = sr.routing;
  const network =
    routing['inter-host-routing-mode'] === 'Tunnel'
      ? `Tunnel [${routing['tunnel-protocol']}]`
      : routing['inter-host-routing-mode'];
  lines.push(`Routing:\tNetwork: ${network}\tHost: ${routing['intra-host-routing-mode']}`);
  const masq = sr.masquerading;
  lines.push(
    `Masquerading:\t${masq.mode}\t[${kpr.deviceList.map((d) => d.name).join(', ')}]\t${masq['snat-exclusion-cidr-v4']} [IPv4: Enabled, IPv6: Disabled]`,
  );
  const failing = sr.controllers.filter((c) => c.status['consecutive-failure-count'] > 0).length;
  lines.push(`Controller Status:\t${sr.controllers.length - failing}/${sr.controllers.length} healthy`);
  const proxy = sr.proxy;
  lines.push(
    `Proxy Status:\tOK, ip ${proxy.ip}, ${proxy['total-redirects']} redirects active on ports ${proxy['port-range']}, Envoy: ${proxy['envoy-deployment-mode']}`,
  );
  const range = sr['identity-range'];
  lines.push(`Global Identity Range:\tmin ${range['min-identity']}, max ${range['max-identity']}`);
  lines.push(`Hubble:\t${sr.hubble.state}`);
  lines.push(`Encryption:\t${sr.encryption.mode}\t`);
  lines.push(clusterHealthSummary(healthStatusResponse(cluster, agent)));
  return tabwrite(`${lines.join('\n')}\n`, { minWidth: 2, padding: 3 });
}
