import type { Evidence, Finding } from '../../sdk/index.ts';
import type { HealthReport, PathHealth } from './health.ts';

/**
 * Node-to-node paths that cilium-health saw fail, and what each failure pattern means. The host
 * probes go straight to the peer's node address; the health-endpoint probes go to a pod address
 * on the peer, so in tunnel mode they ride the tunnel. Endpoint failing while the host answers is
 * the signature of a blocked tunnel.
 */

export const TUNNEL_PATH_DOWN = 'TUNNEL_PATH_DOWN';
export const SELF_PROBE_FAILED = 'HEALTH_SELF_PROBE_FAILED';

export interface FailedPath {
  from: string;
  to: string;
  host?: PathHealth;
  endpoint?: PathHealth;
  /** Failed probes, e.g. `['ICMP', 'HTTP']`. */
  hostFailed: string[];
  endpointFailed: string[];
  /** The peer's agent is not ready: only its node's ICMP answer (the kernel's) was judged. */
  peerNotReady?: boolean;
  /** The node probed itself: no wire, no tunnel between; the fault is on the node. */
  local?: boolean;
}

/** What one agent's report proves about its peers, and what it cannot show. */
export interface ReportJudgement {
  paths: FailedPath[];
  /** Peers the report does not list at all: not checked, never healthy. */
  missing: string[];
}

/**
 * Judges one agent's cilium-health report against the nodes that should be in it (`peers`: node
 * name to whether its agent is ready). A peer whose agent is not ready serves no health endpoint
 * and no HTTP on 4240, so only its node's ICMP (answered by the kernel) counts; that still finds a
 * node that is down or cut off. A peer the report does not list is not checked.
 */
export function judgeReport(
  from: string,
  report: HealthReport,
  peers: ReadonlyMap<string, boolean>,
): ReportJudgement {
  const listed = new Set<string>();
  const paths = report.nodes.flatMap((node): FailedPath[] => {
    if (node.node === from) return selfProbe(from, node);
    const ready = peers.get(node.node);
    if (ready === undefined) return [];
    listed.add(node.node);
    const hostFailed = failedProbes(node.host).filter((probe) => ready || probe === 'ICMP');
    const endpointFailed = ready ? failedProbes(node.endpoint) : [];
    if (hostFailed.length === 0 && endpointFailed.length === 0) return [];
    return [
      {
        from,
        to: node.node,
        host: node.host,
        endpoint: ready ? node.endpoint : undefined,
        hostFailed,
        endpointFailed,
        ...(ready ? {} : { peerNotReady: true }),
      },
    ];
  });
  const missing = [...peers.keys()].filter((node) => node !== from && !listed.has(node));
  return { paths, missing };
}

/** The node's probe of its own host address and health endpoint: a failure there is local. */
function selfProbe(from: string, node: HealthReport['nodes'][number]): FailedPath[] {
  const hostFailed = failedProbes(node.host);
  const endpointFailed = failedProbes(node.endpoint);
  if (hostFailed.length === 0 && endpointFailed.length === 0) return [];
  return [
    { from, to: from, host: node.host, endpoint: node.endpoint, hostFailed, endpointFailed, local: true },
  ];
}

function failedProbes(path: PathHealth | undefined): string[] {
  return [...(path?.icmp?.ok === false ? ['ICMP'] : []), ...(path?.http?.ok === false ? ['HTTP'] : [])];
}

/** Whether the report shows the health endpoint answering: it must have been probed at all. */
function endpointAnswers(path: PathHealth | undefined): boolean {
  return path?.icmp?.ok === true || path?.http?.ok === true;
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
  const downOrCutOff = `Check that ${to} is up and that its security groups and network ACLs let ${from} in, then recheck: ${recheck}`;
  if (path.local) return selfProbeFinding(path, recheck);
  if (path.peerNotReady) {
    return {
      ...base,
      message: `${from} -> ${to}: node ${hostIp} does not answer ICMP, and its Cilium agent is not ready: the node is down or cut off from ${from}`,
      fix: downOrCutOff,
    };
  }
  if (hostFailed.length === 0) {
    return {
      ...base,
      message: `${from} -> ${to}: health endpoint ${endpointIp} fails ${list(endpointFailed)} through the tunnel while node ${hostIp} answers: ${tunnel} is dropped between the nodes`,
      fix: `Let the node security groups accept ${tunnel} from each other (see security-groups), then recheck: ${recheck}`,
    };
  }
  const blocked = hostFailed.map((probe) => (probe === 'HTTP' ? 'tcp/4240 (cilium-health)' : 'ICMP'));
  if (endpointFailed.length === 0 && endpointAnswers(path.endpoint)) {
    return {
      ...base,
      message: `${from} -> ${to}: node ${hostIp} fails ${list(hostFailed)} while its health endpoint answers through the tunnel: ${list(blocked)} is blocked between the nodes`,
      fix: `Let the node security groups accept ${list(blocked)} from each other (see security-groups), then recheck: ${recheck}`,
    };
  }
  if (endpointFailed.length === 0) {
    return {
      ...base,
      message: `${from} -> ${to}: node ${hostIp} fails ${list(hostFailed)}; its health endpoint was not probed (not checked: the report has no endpoint results), so the tunnel cannot be told apart from ${list(blocked)} being blocked`,
      fix: downOrCutOff,
    };
  }
  return {
    ...base,
    message: `${from} -> ${to}: neither node ${hostIp} (${list(hostFailed)}) nor its health endpoint ${endpointIp} (${list(endpointFailed)}) answers: the node is down or all traffic between the nodes is blocked`,
    fix: downOrCutOff,
  };
}

/** A node that cannot reach itself: its agent, its health endpoint or its own firewall, not the network between nodes. */
function selfProbeFinding(path: FailedPath, recheck: string): Finding {
  const failed = [
    ...(path.hostFailed.length > 0
      ? [`its own address ${path.host?.ip ?? '?'} (${list(path.hostFailed)})`]
      : []),
    ...(path.endpointFailed.length > 0
      ? [`its own health endpoint ${path.endpoint?.ip ?? '?'} (${list(path.endpointFailed)})`]
      : []),
  ];
  return {
    code: SELF_PROBE_FAILED,
    target: path.from,
    severity: 'warning',
    message: `${path.from}: cilium-health on this node fails to reach ${failed.join(' and ')}: the local node, not the path to another node`,
    fix: `Check the agent and its health endpoint on ${path.from} (cilium-dbg status --verbose in its agent pod; restart that pod if the health endpoint stays down), then recheck: ${recheck}`,
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
