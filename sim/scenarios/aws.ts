import type { AgentState, AwsState, ProbeResult, SecurityGroup, SecurityGroupRule } from '../agent-state.ts';
import type { ResolvedOptions, VxlanCause } from './options.ts';
import type { Random } from './random.ts';

export const HEALTH_PORT = 4240;
const ICMP_TIMEOUT = 'Connection timed out';

/** cilium-health's HTTP probe error when nothing answers on 4240. */
function httpProbeTimeout(ip: string): string {
  return `Get "http://${ip}:${HEALTH_PORT}/hello": context deadline exceeded (Client.Timeout exceeded while awaiting headers)`;
}

/**
 * Node security groups as a custom launch template sets them: one per node group, each letting
 * the node groups reach each other on the tunnel port, the health port and ICMP, and the control
 * plane reach the kubelet and webhooks.
 */
export function makeSecurityGroups(
  random: Random,
  options: ResolvedOptions,
  nodegroups: readonly string[],
): { all: SecurityGroup[]; byNodegroup: Map<string, string> } {
  const controlPlane = random.awsId('sg');
  const byNodegroup = new Map(nodegroups.map((group) => [group, random.awsId('sg')]));
  const nodeGroupIds = [...byNodegroup.values()];
  const fromNodes = (rule: Omit<SecurityGroupRule, 'sourceGroupId'>) =>
    nodeGroupIds.map((sourceGroupId) => ({ ...rule, sourceGroupId }));
  const nodeIngress: SecurityGroupRule[] = [
    ...(options.routingMode === 'tunnel'
      ? fromNodes({ protocol: 'udp', fromPort: options.tunnelPort, toPort: options.tunnelPort })
      : []),
    ...fromNodes({ protocol: 'tcp', fromPort: HEALTH_PORT, toPort: HEALTH_PORT }),
    ...fromNodes({ protocol: 'icmp', fromPort: -1, toPort: -1 }),
    { protocol: 'tcp', fromPort: 443, toPort: 443, sourceGroupId: controlPlane },
    { protocol: 'tcp', fromPort: 10250, toPort: 10250, sourceGroupId: controlPlane },
  ];
  return {
    all: [
      {
        groupId: controlPlane,
        groupName: `eks-cluster-sg-${options.clusterName}-${1_000_000_000 + random.int(999_999_999)}`,
        ingress: fromNodes({ protocol: 'tcp', fromPort: 443, toPort: 443 }),
      },
      ...nodegroups.map((group) => ({
        groupId: byNodegroup.get(group) as string,
        groupName: `${options.clusterName}-${group}-node`,
        ingress: nodeIngress,
      })),
    ],
    byNodegroup,
  };
}

/** The node security groups lose the rules that `cause` names (domain incident 3). */
export function blockBetweenNodes(aws: AwsState, cause: VxlanCause): void {
  const dropped: Record<VxlanCause, (rule: SecurityGroupRule) => boolean> = {
    'udp-blocked': (rule) => rule.protocol === 'udp',
    'health-port-blocked': (rule) => rule.protocol === 'tcp' && rule.fromPort === HEALTH_PORT,
    'icmp-blocked': (rule) => rule.protocol === 'icmp',
  };
  const nodeGroups = new Set(Object.values(aws.instanceSecurityGroups).flat());
  aws.securityGroups = aws.securityGroups.map((group) =>
    nodeGroups.has(group.groupId)
      ? { ...group, ingress: group.ingress.filter((rule) => !dropped[cause](rule)) }
      : group,
  );
}

function allows(
  aws: AwsState,
  from: readonly string[],
  to: readonly string[],
  protocol: 'udp' | 'tcp' | 'icmp',
  port: number,
): boolean {
  return aws.securityGroups.some(
    (group) =>
      to.includes(group.groupId) &&
      group.ingress.some(
        (rule) =>
          (rule.protocol === protocol || rule.protocol === '-1') &&
          (protocol === 'icmp' ||
            rule.protocol === '-1' ||
            ((rule.fromPort ?? 0) <= port && port <= (rule.toPort ?? 65535))) &&
          rule.sourceGroupId !== undefined &&
          from.includes(rule.sourceGroupId),
      ),
  );
}

export interface HealthPeer {
  name: string;
  ip: string;
  healthIp: string;
  instanceId: string;
}

interface PathVerdict {
  hostIcmp: boolean;
  hostHttp: boolean;
  endpointIcmp: boolean;
  endpointHttp: boolean;
}

/**
 * Fills each agent's cilium-health results from the security groups: the host probes go straight
 * to the peer's node address, so they need ICMP and 4240/tcp; the health-endpoint probes go to a
 * pod address, so in tunnel mode they need only the tunnel port (the probes ride inside it), and
 * in native routing the same rules as the host. Only failing peers are recorded. Nodes are grouped
 * by their security groups, so a healthy cluster of thousands of nodes costs a few checks. Rules
 * are matched by source group; CIDR sources are not evaluated (the node groups never use them).
 */
export function deriveHealth(
  agents: ReadonlyMap<string, AgentState>,
  aws: AwsState,
  peers: readonly HealthPeer[],
  options: Pick<ResolvedOptions, 'routingMode' | 'tunnelPort'>,
): void {
  const groupsOf = (peer: HealthPeer) => aws.instanceSecurityGroups[peer.instanceId] ?? [];
  const bySgSet = new Map<string, HealthPeer[]>();
  for (const peer of peers) {
    const key = groupsOf(peer).join(',');
    const members = bySgSet.get(key);
    if (members) members.push(peer);
    else bySgSet.set(key, [peer]);
  }
  for (const sources of bySgSet.values()) {
    for (const targets of bySgSet.values()) {
      const from = groupsOf(sources[0] as HealthPeer);
      const to = groupsOf(targets[0] as HealthPeer);
      const tunnel = options.routingMode === 'tunnel' && allows(aws, from, to, 'udp', options.tunnelPort);
      const verdict: PathVerdict = {
        hostIcmp: allows(aws, from, to, 'icmp', 0),
        hostHttp: allows(aws, from, to, 'tcp', HEALTH_PORT),
        endpointIcmp: options.routingMode === 'tunnel' ? tunnel : allows(aws, from, to, 'icmp', 0),
        endpointHttp: options.routingMode === 'tunnel' ? tunnel : allows(aws, from, to, 'tcp', HEALTH_PORT),
      };
      if (Object.values(verdict).every(Boolean)) continue;
      // One result per target, shared (frozen) by every source that sees it the same way.
      const results = targets.map((target) =>
        Object.freeze({
          host: probe(verdict.hostIcmp, verdict.hostHttp, target.ip),
          endpoint: probe(verdict.endpointIcmp, verdict.endpointHttp, target.healthIp),
        }),
      );
      for (const source of sources) {
        const agent = agents.get(source.name);
        if (!agent) continue;
        targets.forEach((target, i) => {
          if (target.name !== source.name)
            agent.health.peers[target.name] = results[i] as (typeof results)[number];
        });
      }
    }
  }
}

function probe(icmp: boolean, http: boolean, ip: string): ProbeResult {
  return Object.freeze({ icmp: icmp ? '' : ICMP_TIMEOUT, http: http ? '' : httpProbeTimeout(ip) });
}
