/**
 * The simulated VPC's address plan. Up to 12,000 nodes: nodes in three zonal /18 subnets of
 * 10.0.0.0/16, four addresses apart; pods in 100.64.0.0/10 (a secondary CIDR, as large EKS clusters
 * use), one /24 per node. Larger clusters (to 120,000 nodes) need more room: zonal /14 subnets of
 * 10.0.0.0/12, and pods in 10.128.0.0/9, one /26 (61 pod addresses) per node.
 */
export const REGION = 'us-west-2';
export const ZONES = ['us-west-2a', 'us-west-2b', 'us-west-2c'] as const;

/** The most nodes the small plan (and the simulator before 100,000-node clusters) holds. */
const SMALL_PLAN_NODES = 12_000;
/** The most nodes the large plan holds, with room to spare in both ranges. */
export const MAX_NODES = 120_000;

function ipToInt(ip: string): number {
  return ip.split('.').reduce((n, octet) => n * 256 + Number(octet), 0);
}

export function intToIp(n: number): string {
  return `${(n >>> 24) & 255}.${(n >>> 16) & 255}.${(n >>> 8) & 255}.${n & 255}`;
}

export interface AddressPlan {
  /** The cluster-pool CIDR and the mask of each node's block (cilium-config). */
  podCidr: string;
  podBlockBits: number;
  /** The zonal subnet a node of zone index `zone` gets its address from. */
  zoneSubnet(zone: number): { cidr: string; base: number };
  /** The pod block of the node with this index. */
  podBlock(index: number): { cidr: string; base: number };
  /** Usable offsets in a pod block after the network address, the router and the health endpoint. */
  podBlockFirst: number;
  podBlockLast: number;
}

function plan(zoneBits: number, podCidr: string, podBlockBits: number): AddressPlan {
  const [podBase = ''] = podCidr.split('/');
  const blockSize = 2 ** (32 - podBlockBits);
  return {
    podCidr,
    podBlockBits,
    zoneSubnet(zone) {
      const base = ipToInt('10.0.0.0') + zone * 2 ** (32 - zoneBits);
      return { cidr: `${intToIp(base)}/${zoneBits}`, base };
    },
    podBlock(index) {
      const base = ipToInt(podBase) + index * blockSize;
      return { cidr: `${intToIp(base)}/${podBlockBits}`, base };
    },
    podBlockFirst: 3,
    podBlockLast: blockSize - 2,
  };
}

const SMALL = plan(18, '100.64.0.0/10', 24);
const LARGE = plan(14, '10.128.0.0/9', 26);

/** The plan for a cluster of `nodes` nodes: the small one unless it cannot hold them. */
export function addressPlan(nodes: number): AddressPlan {
  return nodes <= SMALL_PLAN_NODES ? SMALL : LARGE;
}

/** `ip-10-0-1-23.us-west-2.compute.internal`, the private DNS name EC2 gives an instance. */
export function ec2HostName(ip: string): string {
  return `ip-${ip.replaceAll('.', '-')}.${REGION}.compute.internal`;
}
