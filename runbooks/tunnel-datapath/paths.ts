import type { Evidence, Finding } from '../../src/engine/types.ts';
import type { HealthReport, PathHealth } from './health.ts';

/**
 * Node-to-node paths that cilium-health saw fail, and what each failure pattern means. The host
 * probes go straight to the peer's node address; the health-endpoint probes go to a pod address
 * on the peer, so in tunnel mode they ride the tunnel. Endpoint failing while the host answers is
 * the signature of a blocked tunnel.
 */

export const TUNNEL_PATH_DOWN = 'TUNNEL_PATH_DOWN';

export interface FailedPath {
  from: string;
  to: string;
  host?: PathHealth;
  endpoint?: PathHealth;
  /** Failed probes, e.g. `['ICMP', 'HTTP']`. */
  hostFailed: string[];
  endpointFailed: string[];
}

/** Paths from `from` to each of `peers` (other nodes worth judging) with a failed probe. */
export function failedPaths(from: string, report: HealthReport, peers: ReadonlySet<string>): FailedPath[] {
  return report.nodes.flatMap((node) => {
    if (node.node === from || !peers.has(node.node)) return [];
    const hostFailed = failedProbes(node.host);
    const endpointFailed = failedProbes(node.endpoint);
    if (hostFailed.length === 0 && endpointFailed.length === 0) return [];
    return [{ from, to: node.node, host: node.host, endpoint: node.endpoint, hostFailed, endpointFailed }];
  });
}

function failedProbes(path: PathHealth | undefined): string[] {
  return [...(path?.icmp?.ok === false ? ['ICMP'] : []), ...(path?.http?.ok === false ? ['HTTP'] : [])];
}

/**
 * One finding per failing pair, saying which probes failed and what that points at.
 * `tunnel` names the tunnel port (`udp/8472 (VXLAN)`); `recheck` is the command to run after a fix.
 */
export function pathFinding(path: FailedPath, tunnel: string, recheck: string): Finding {
  const { from, to, hostFailed, endpointFailed } = path;
  const hostIp = path.host?.ip ?? '?';
  const endpointIp = path.endpoint?.ip ?? '?';
  const base = { code: TUNNEL_PATH_DOWN, target: `${from}->${to}`, severity: 'critical' as const };
  if (hostFailed.length === 0) {
    return {
      ...base,
      message: `${from} -> ${to}: health endpoint ${endpointIp} fails ${list(endpointFailed)} through the tunnel while node ${hostIp} answers: ${tunnel} is dropped between the nodes`,
      fix: `Let the node security groups accept ${tunnel} from each other (see security-groups), then recheck: ${recheck}`,
    };
  }
  if (endpointFailed.length === 0) {
    const blocked = hostFailed.map((probe) => (probe === 'HTTP' ? 'tcp/4240 (cilium-health)' : 'ICMP'));
    return {
      ...base,
      message: `${from} -> ${to}: node ${hostIp} fails ${list(hostFailed)} while its health endpoint answers through the tunnel: ${list(blocked)} is blocked between the nodes`,
      fix: `Let the node security groups accept ${list(blocked)} from each other (see security-groups), then recheck: ${recheck}`,
    };
  }
  return {
    ...base,
    message: `${from} -> ${to}: neither node ${hostIp} (${list(hostFailed)}) nor its health endpoint ${endpointIp} (${list(endpointFailed)}) answers: the node is down or all traffic between the nodes is blocked`,
    fix: `Check that ${to} is up and that its security groups and network ACLs let ${from} in, then recheck: ${recheck}`,
  };
}

/** The probes' own error strings, for the report. */
export function pathEvidence(path: FailedPath): Evidence {
  const errors = [...probeErrors('node', path.host), ...probeErrors('health endpoint', path.endpoint)];
  return {
    source: `${path.from}: cilium-health status -o json`,
    text: `-> ${path.to}: ${errors.join('; ')}`,
  };
}

function probeErrors(label: string, path: PathHealth | undefined): string[] {
  if (!path) return [];
  return [
    ...(path.icmp?.ok === false ? [`${label} ${path.ip} ICMP: ${path.icmp.error}`] : []),
    ...(path.http?.ok === false ? [`${label} ${path.ip} HTTP: ${path.http.error}`] : []),
  ];
}

function list(items: readonly string[]): string {
  return items.length <= 1
    ? (items[0] ?? '')
    : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}
