import type { AgentState, ProbeResult } from '../../../agent-state.ts';
import type { SimCluster } from '../../../cluster.ts';
import { ciliumNodeFullName, ciliumNodeNames } from '../../facts/cilium-nodes.ts';
import { rfc3339, simNow } from '../../facts/clock.ts';
import { nodeAddresses } from '../../facts/node-addresses.ts';
import { goDuration } from '../../format/go-duration.ts';
import { stableNumber } from '../../format/hash.ts';

/** models.ConnectivityStatus: `status` is omitted (omitempty) when the probe succeeded, like `latency` when it failed. */
export interface ConnectivityStatus {
  lastProbed: string;
  latency?: number;
  status?: string;
}

export interface PathStatus {
  http: ConnectivityStatus;
  icmp: ConnectivityStatus;
  ip: string;
}

export interface NodeStatus {
  endpoint: PathStatus;
  'health-endpoint': { 'primary-address': PathStatus; 'secondary-addresses': PathStatus[] };
  host: { 'primary-address': PathStatus; 'secondary-addresses': PathStatus[] };
  name: string;
}

export interface HealthStatusResponse {
  local: { name: string };
  nodes: NodeStatus[];
  probeInterval: string;
  timestamp: string;
}

const HEALTHY: ProbeResult = { icmp: '', http: '' };

/**
 * cilium-health's `GET /status` (api/v1/health/models): one entry per Cilium node including the
 * local one, each probed on its InternalIP ("host") and its health endpoint IP. A peer listed in
 * `agent.health.peers` gets those results; every other path is healthy with a stable latency.
 */
export function healthStatusResponse(cluster: SimCluster, agent: AgentState): HealthStatusResponse {
  const now = simNow(cluster);
  const probed = rfc3339(now);
  const names = ciliumNodeNames(cluster);
  const nodes = names.map((name): NodeStatus => {
    const addresses = nodeAddresses(cluster, name);
    const override = agent.health.peers[name];
    const host = path(addresses.internalIP, override?.host ?? HEALTHY, `${agent.node}>${name}/host`, probed);
    const endpoint = path(
      addresses.healthIP,
      override?.endpoint ?? HEALTHY,
      `${agent.node}>${name}/ep`,
      probed,
    );
    return {
      endpoint,
      'health-endpoint': { 'primary-address': endpoint, 'secondary-addresses': [] },
      host: { 'primary-address': host, 'secondary-addresses': [] },
      name: ciliumNodeFullName(cluster, name),
    };
  });
  return {
    local: { name: ciliumNodeFullName(cluster, agent.node) },
    nodes,
    probeInterval: goDuration(probeIntervalNs(names.length * 2)),
    timestamp: rfc3339(new Date(now.getTime() - 30_000)),
  };
}

/**
 * The prober's interval: a 60 s base (10 s + ratio 0.5 × 100 s) scaled by ln(1 + probed IPs),
 * as pkg/backoff.ClusterSizeDependantInterval computes it.
 */
function probeIntervalNs(ipCount: number): number {
  const base = 60e9;
  return ipCount === 0 ? base : Math.trunc(base * Math.log1p(ipCount));
}

function path(ip: string, result: ProbeResult, seed: string, lastProbed: string): PathStatus {
  return {
    http: connectivity(result.http, `${seed}/http`, lastProbed),
    icmp: connectivity(result.icmp, `${seed}/icmp`, lastProbed),
    ip,
  };
}

function connectivity(status: string, seed: string, lastProbed: string): ConnectivityStatus {
  if (status) return { lastProbed, status };
  return { lastProbed, latency: 150_000 + (stableNumber(seed) % 850_000) };
}

/** A path is reachable when neither probe reported an error. */
export function pathReachable(path: PathStatus): boolean {
  return !path.http.status && !path.icmp.status;
}
