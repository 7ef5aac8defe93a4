import { goDuration } from '../../format/go-duration.ts';
import type { ConnectivityStatus, HealthStatusResponse, NodeStatus, PathStatus } from './health-response.ts';
import { pathReachable } from './health-response.ts';

/**
 * pkg/health/client FormatHealthStatusResponse: a summary line, a header, then one line per node
 * (all nodes, or only unreachable ones up to `maxLines`), or per-path blocks when verbose.
 * Returns tab-separated text for the caller's tabwriter.
 */
export function formatHealthStatus(
  sr: HealthStatusResponse,
  options: { allNodes: boolean; verbose: boolean; maxLines: number },
): string {
  const healthy = sr.nodes.filter(nodeHealthy).length;
  let out = `Cluster health:\t${healthy}/${sr.nodes.length} reachable\t(${sr.timestamp})\t(Probe interval: ${sr.probeInterval})\n`;
  out += 'Name\tIP\tNode\tEndpoints\n';
  const localhost = sr.nodes.find((node) => node.name === sr.local.name);
  let printed = 0;
  const print = (node: NodeStatus, isLocal: boolean) => {
    const text = formatNode(node, options, isLocal);
    if (text) {
      out += text;
      printed++;
    }
  };
  if (localhost) print(localhost, true);
  for (const node of [...sr.nodes].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    if (printed === options.maxLines) break;
    if (node !== localhost) print(node, false);
  }
  if (sr.nodes.length - printed - healthy > 0) out += '  ...\n';
  return out;
}

/** The summary `cilium-dbg status` embeds: unreachable nodes only, at most ten. */
export function clusterHealthSummary(sr: HealthStatusResponse): string {
  return formatHealthStatus(sr, { allNodes: false, verbose: false, maxLines: 10 }).replace(/\n$/, '');
}

function nodeHealthy(node: NodeStatus): boolean {
  return (
    pathReachable(node.host['primary-address']) && pathReachable(node['health-endpoint']['primary-address'])
  );
}

function formatNode(
  node: NodeStatus,
  options: { allNodes: boolean; verbose: boolean },
  isLocal: boolean,
): string {
  const name = `  ${node.name}${isLocal ? ' (localhost)' : ''}`;
  if (options.verbose) {
    return `${name}:\n${formatPath('Host', node.host['primary-address'])}${formatPath('Endpoint', node['health-endpoint']['primary-address'])}`;
  }
  if (nodeHealthy(node) && !options.allNodes) return '';
  const hostReachable = pathReachable(node.host['primary-address']) ? 1 : 0;
  const endpointReachable = pathReachable(node['health-endpoint']['primary-address']) ? 1 : 0;
  return `${name}\t${node.host['primary-address'].ip}\t${hostReachable}/1\t${endpointReachable}/1\n`;
}

function formatPath(label: string, path: PathStatus): string {
  const indent = '    ';
  return (
    `${indent}${label} connectivity to ${path.ip}:\n` +
    formatConnectivity(path.icmp, 'ICMP to stack', indent) +
    formatConnectivity(path.http, 'HTTP to agent', indent)
  );
}

function formatConnectivity(status: ConnectivityStatus, label: string, indent: string): string {
  const result = status.status ? status.status : `OK, RTT=${goDuration(status.latency ?? 0)}`;
  return `${indent}  ${label}:\t${result}\t(Last probed: ${status.lastProbed})\n`;
}
