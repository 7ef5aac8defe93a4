/**
 * The EC2 side of node-to-node traffic: which security groups sit on each node's primary network
 * interface, what those groups let in, and whether that covers a given kind of traffic from the
 * other nodes. Read-only: DescribeInstances and DescribeSecurityGroups.
 */
// Types only: the client's code loads at the first call, so what imports these helpers (the tunnel
// runbook, every run's cluster access) does not carry the EC2 client until it reads EC2.
import type { EC2Client, Instance, IpPermission } from '@aws-sdk/client-ec2';

/** A node's address and security groups, as its primary network interface has them. */
export interface InstanceNetwork {
  /** e.g. `i-0abc...`. */
  instanceId: string;
  /** The primary interface's private IPv4 address. */
  privateIp?: string;
  /** The security groups on that interface. */
  groupIds: string[];
}

/** One inbound rule of a security group. */
export interface IngressRule {
  /** `tcp`, `udp`, `icmp`, `-1` (everything), or another IANA name or number. */
  protocol: string;
  /** Port range for tcp/udp; ICMP type (from) and code (to) for icmp; -1 or absent means all. */
  fromPort?: number;
  /** End of the port range (ICMP: the code). */
  toPort?: number;
  /** Security groups the rule lets in. */
  sourceGroupIds: string[];
  /** IPv4 CIDR sources. Prefix-list and IPv6 sources are not read. */
  cidrs: string[];
}

/** A security group's inbound rules. */
export interface SecurityGroupRules {
  /** e.g. `sg-0abc...`. */
  groupId: string;
  /** Its name, for messages. */
  groupName?: string;
  /** Its inbound rules (IPv4 and security-group sources). */
  ingress: IngressRule[];
}

/** For icmp, `port` is the ICMP type (EC2 keeps it in FromPort), e.g. 8 for echo request. */
export interface Traffic {
  /** The IP protocol. */
  protocol: 'tcp' | 'udp' | 'icmp';
  /** The destination port (ICMP: the type). */
  port: number;
}

/** The sending nodes: their security groups and addresses (for CIDR rules). */
export interface TrafficSource {
  /** Their security groups. */
  groupIds: readonly string[];
  /** Their private IPv4 addresses. */
  addresses: readonly string[];
}

/** EC2 takes at most 200 values per filter. */
const FILTER_VALUES = 200;
const PROTOCOL_NAMES: Record<string, string> = { '1': 'icmp', '6': 'tcp', '17': 'udp', '58': 'icmpv6' };
const DENIED = new Set(['UnauthorizedOperation', 'AccessDenied', 'AccessDeniedException']);

/**
 * The EC2 reads the tunnel runbook makes, for one cluster: its account (the cluster's role when
 * it has one) and its region. Runbooks get it from the cluster connection, never build a client.
 */
export interface Ec2Reader {
  /** The cluster's region. */
  readonly region: string;
  /** DescribeInstances: each instance's primary interface (address, security groups). */
  instanceNetworks(instanceIds: readonly string[]): Promise<InstanceNetwork[]>;
  /** DescribeSecurityGroups: each group's inbound rules. */
  securityGroups(groupIds: readonly string[]): Promise<SecurityGroupRules[]>;
}

export function ec2Reader(ec2: EC2Client, region: string): Ec2Reader {
  return {
    region,
    instanceNetworks: (ids) => describeInstanceNetworks(ec2, ids),
    securityGroups: (ids) => describeSecurityGroups(ec2, ids),
  };
}

/**
 * `aws:///us-west-2a/i-0abc...` → `i-0abc...`; undefined for nodes that are not EC2 instances.
 *
 * @example
 * ```ts
 * const nodes = await ctx.kube.list(RESOURCES.nodes, {
 *   project: (node) => instanceIdFromProviderId((node.spec as { providerID?: string }).providerID),
 * });
 * ```
 */
export function instanceIdFromProviderId(providerID: string | undefined): string | undefined {
  return /^aws:\/\/\/[^/]*\/(i-[0-9a-f]+)$/.exec(providerID ?? '')?.[1];
}

/** A failed EC2 call, named so the report says which permission or call to look at. */
export class Ec2Error extends Error {
  constructor(
    readonly action: string,
    cause: unknown,
  ) {
    const name = cause instanceof Error ? cause.name : 'Error';
    const detail = cause instanceof Error ? cause.message : String(cause);
    super(
      DENIED.has(name)
        ? `not allowed to call ec2:${action} (${name}: ${detail}); grant ec2:${action} to the responder's IAM role`
        : `ec2:${action} failed (${name}: ${detail})`,
      { cause },
    );
    this.name = 'Ec2Error';
  }
}

/**
 * Instances by id, with the security groups of their primary interface (device index 0, which
 * carries the node IP and so the tunnel). A filter, not InstanceIds, so an instance terminated
 * since the node list was read is left out instead of failing the call.
 */
async function describeInstanceNetworks(
  ec2: EC2Client,
  instanceIds: readonly string[],
): Promise<InstanceNetwork[]> {
  const { paginateDescribeInstances } = await import('@aws-sdk/client-ec2');
  const instances: Instance[] = [];
  for (const values of chunks(instanceIds)) {
    const pages = paginateDescribeInstances(
      { client: ec2 },
      { Filters: [{ Name: 'instance-id', Values: values }] },
    );
    await call('DescribeInstances', async () => {
      for await (const page of pages)
        instances.push(...(page.Reservations ?? []).flatMap((reservation) => reservation.Instances ?? []));
    });
  }
  return instances.flatMap((instance) =>
    instance.InstanceId ? [instanceNetwork(instance, instance.InstanceId)] : [],
  );
}

function instanceNetwork(instance: Instance, instanceId: string): InstanceNetwork {
  const primary = instance.NetworkInterfaces?.find((eni) => eni.Attachment?.DeviceIndex === 0);
  const groups = primary?.Groups ?? instance.SecurityGroups ?? [];
  return {
    instanceId,
    privateIp: primary?.PrivateIpAddress ?? instance.PrivateIpAddress,
    groupIds: groups.flatMap((group) => (group.GroupId ? [group.GroupId] : [])),
  };
}

async function describeSecurityGroups(
  ec2: EC2Client,
  groupIds: readonly string[],
): Promise<SecurityGroupRules[]> {
  const { paginateDescribeSecurityGroups } = await import('@aws-sdk/client-ec2');
  const groups: SecurityGroupRules[] = [];
  for (const values of chunks(groupIds)) {
    const pages = paginateDescribeSecurityGroups(
      { client: ec2 },
      { Filters: [{ Name: 'group-id', Values: values }] },
    );
    await call('DescribeSecurityGroups', async () => {
      for await (const page of pages) {
        for (const group of page.SecurityGroups ?? []) {
          if (!group.GroupId) continue;
          groups.push({
            groupId: group.GroupId,
            groupName: group.GroupName,
            ingress: (group.IpPermissions ?? []).map(ingressRule),
          });
        }
      }
    });
  }
  return groups;
}

function ingressRule(permission: IpPermission): IngressRule {
  const protocol = permission.IpProtocol ?? '-1';
  return {
    protocol: PROTOCOL_NAMES[protocol] ?? protocol,
    fromPort: permission.FromPort,
    toPort: permission.ToPort,
    sourceGroupIds: (permission.UserIdGroupPairs ?? []).flatMap((pair) =>
      pair.GroupId ? [pair.GroupId] : [],
    ),
    cidrs: (permission.IpRanges ?? []).flatMap((range) => (range.CidrIp ? [range.CidrIp] : [])),
  };
}

/**
 * Whether any of `groups` (the receiving node's security groups: EC2 allows what any of them
 * allows) lets `traffic` in from `source`: a rule naming one of the source's groups, or a CIDR
 * covering every source address.
 *
 * @example
 * ```ts
 * const groups = await ctx.aws.ec2.securityGroups(receiver.groupIds);
 * const vxlan = allowsBetween(groups, { protocol: 'udp', port: 8472 }, { groupIds, addresses });
 * ```
 */
export function allowsBetween(
  groups: readonly SecurityGroupRules[],
  traffic: Traffic,
  source: TrafficSource,
): boolean {
  return groups.some((group) =>
    group.ingress.some((rule) => ruleCoversTraffic(rule, traffic) && ruleCoversSource(rule, source)),
  );
}

function ruleCoversTraffic(rule: IngressRule, traffic: Traffic): boolean {
  if (rule.protocol === '-1') return true;
  if (rule.protocol !== traffic.protocol) return false;
  const from = rule.fromPort ?? -1;
  const to = rule.toPort ?? -1;
  if (traffic.protocol === 'icmp') {
    // Type in FromPort, code in ToPort; the probes send code 0.
    return (from === -1 || from === traffic.port) && (to === -1 || to === 0);
  }
  return from === -1 || (from <= traffic.port && traffic.port <= to);
}

function ruleCoversSource(rule: IngressRule, source: TrafficSource): boolean {
  if (rule.sourceGroupIds.some((id) => source.groupIds.includes(id))) return true;
  return (
    source.addresses.length > 0 &&
    rule.cidrs.some((cidr) => source.addresses.every((address) => cidrContains(cidr, address)))
  );
}

/** IPv4 only: the nodes' addresses are IPv4 on EKS. */
export function cidrContains(cidr: string, address: string): boolean {
  const [network, bits] = cidr.split('/');
  const prefix = Number(bits ?? '32');
  const base = ipv4(network ?? '');
  const ip = ipv4(address);
  if (base === undefined || ip === undefined || !Number.isInteger(prefix) || prefix < 0 || prefix > 32)
    return false;
  const mask = prefix === 0 ? 0 : (~0 << (32 - prefix)) >>> 0;
  return (base & mask) >>> 0 === (ip & mask) >>> 0;
}

function ipv4(text: string): number | undefined {
  const octets = text.split('.');
  if (octets.length !== 4 || octets.some((octet) => !/^\d{1,3}$/.test(octet) || Number(octet) > 255))
    return undefined;
  return octets.reduce((value, octet) => value * 256 + Number(octet), 0);
}

function chunks<T>(items: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += FILTER_VALUES) out.push(items.slice(i, i + FILTER_VALUES));
  return out;
}

async function call<T>(action: string, send: () => Promise<T>): Promise<T> {
  try {
    return await send();
  } catch (error) {
    throw new Ec2Error(action, error);
  }
}
