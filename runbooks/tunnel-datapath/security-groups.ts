import {
  allowsBetween,
  type Finding,
  type IngressRule,
  type InstanceNetwork,
  type SecurityGroupRules,
  type Traffic,
} from '../../sdk/index.ts';
import { describeTunnel, type Routing } from './routing.ts';

/**
 * Whether the node security groups let the nodes reach each other the way a tunnelled Cilium
 * needs: the tunnel port (udp), cilium-health's 4240/tcp, and ICMP (echo for the health probes;
 * the fix opens all ICMP, which path MTU discovery through the tunnel also needs).
 */

export const TUNNEL_PORT_BLOCKED = 'TUNNEL_PORT_BLOCKED';

export interface NodeTraffic extends Traffic {
  /** e.g. `udp/8472 (VXLAN)`. */
  label: string;
  /** `--ip-permissions` shorthand without the source, e.g. `IpProtocol=udp,FromPort=8472,ToPort=8472`. */
  permission: string;
}

const ICMP_ECHO_REQUEST = 8;
const HEALTH_PORT = 4240;

export function nodeTraffic(routing: Extract<Routing, { mode: 'tunnel' }>): NodeTraffic[] {
  return [
    {
      protocol: 'udp',
      port: routing.port,
      label: describeTunnel(routing),
      permission: `IpProtocol=udp,FromPort=${routing.port},ToPort=${routing.port}`,
    },
    {
      protocol: 'tcp',
      port: HEALTH_PORT,
      label: `tcp/${HEALTH_PORT} (cilium-health)`,
      permission: `IpProtocol=tcp,FromPort=${HEALTH_PORT},ToPort=${HEALTH_PORT}`,
    },
    {
      protocol: 'icmp',
      port: ICMP_ECHO_REQUEST,
      label: 'ICMP',
      permission: 'IpProtocol=icmp,FromPort=-1,ToPort=-1',
    },
  ];
}

/** A node security group and the traffic it lets in from none of the groups it should. */
export interface BlockedIngress {
  group: SecurityGroupRules;
  missing: { traffic: NodeTraffic; fromGroups: string[] }[];
}

/**
 * Nodes with the same security groups behave alike, so the check runs per pair of group sets,
 * not per pair of nodes. When no group of a receiving set allows some traffic from a sending
 * set, each group of the receiving set is reported (adding the rule to any one of them fixes it).
 */
export function blockedIngress(
  nodes: readonly InstanceNetwork[],
  groups: readonly SecurityGroupRules[],
  needs: readonly NodeTraffic[],
): BlockedIngress[] {
  const byId = new Map(groups.map((group) => [group.groupId, group]));
  const sets = groupSets(nodes);
  const missing = new Map<string, Map<NodeTraffic, Set<string>>>();
  for (const receiving of sets) {
    const receivingGroups = receiving.groupIds.map((id) => byId.get(id) ?? { groupId: id, ingress: [] });
    for (const traffic of needs) {
      for (const sending of sets) {
        if (allowsBetween(receivingGroups, traffic, sending)) continue;
        for (const groupId of receiving.groupIds) {
          const perTraffic = missing.get(groupId) ?? new Map<NodeTraffic, Set<string>>();
          missing.set(groupId, perTraffic);
          const from = perTraffic.get(traffic) ?? new Set<string>();
          perTraffic.set(traffic, from);
          for (const id of sending.groupIds) from.add(id);
        }
      }
    }
  }
  return [...missing.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([groupId, perTraffic]) => ({
      group: byId.get(groupId) ?? { groupId, ingress: [] },
      missing: needs.flatMap((traffic) => {
        const from = perTraffic.get(traffic);
        return from ? [{ traffic, fromGroups: [...from].sort() }] : [];
      }),
    }));
}

interface GroupSet {
  groupIds: string[];
  addresses: string[];
}

function groupSets(nodes: readonly InstanceNetwork[]): GroupSet[] {
  const sets = new Map<string, GroupSet>();
  for (const node of nodes) {
    if (node.groupIds.length === 0) continue;
    const groupIds = [...node.groupIds].sort();
    const key = groupIds.join(',');
    const set = sets.get(key) ?? { groupIds, addresses: [] };
    sets.set(key, set);
    if (node.privateIp) set.addresses.push(node.privateIp);
  }
  return [...sets.values()];
}

export function blockedFinding(blocked: BlockedIngress, region: string): Finding {
  const { group, missing } = blocked;
  const name = group.groupName ? ` (${group.groupName})` : '';
  const what = missing
    .map(({ traffic, fromGroups }) => `${traffic.label} from ${fromGroups.join(', ')}`)
    .join('; ');
  const permissions = missing
    .map(({ traffic, fromGroups }) => {
      const sources = fromGroups.map((id) => `{GroupId=${id}}`).join(',');
      return `'${traffic.permission},UserIdGroupPairs=[${sources}]'`;
    })
    .join(' ');
  return {
    code: TUNNEL_PORT_BLOCKED,
    target: group.groupId,
    severity: 'critical',
    message: `${group.groupId}${name} does not allow ${what}`,
    fix: `aws ec2 authorize-security-group-ingress --region ${region} --group-id ${group.groupId} --ip-permissions ${permissions}`,
  };
}

/** One ingress rule for the report, e.g. `udp 8472 from sg-1, 10.0.0.0/16` or `all from sg-1`. */
export function describeRule(rule: IngressRule): string {
  const from = rule.fromPort ?? -1;
  const to = rule.toPort ?? -1;
  const ports = from === -1 ? 'all' : from === to ? `${from}` : `${from}-${to}`;
  const what = rule.protocol === '-1' ? 'all' : `${rule.protocol} ${ports}`;
  const sources = [...rule.sourceGroupIds, ...rule.cidrs];
  return `${what} from ${sources.join(', ') || 'a prefix list or IPv6 range (not checked)'}`;
}
