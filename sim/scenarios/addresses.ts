/**
 * The simulated VPC's address plan. Nodes live in three zonal /18 subnets of 10.0.0.0/16, four
 * addresses apart (room for 12,000 nodes); pods live in 100.64.0.0/10 (a secondary CIDR, as large
 * EKS clusters use), one /24 per node.
 */
export const REGION = 'us-west-2';
export const ZONES = ['us-west-2a', 'us-west-2b', 'us-west-2c'] as const;
export const POD_CIDR = '100.64.0.0/10';
const ZONE_SUBNET_BITS = 18;
const POD_BLOCK_BITS = 24;

function ipToInt(ip: string): number {
  return ip.split('.').reduce((n, octet) => n * 256 + Number(octet), 0);
}

export function intToIp(n: number): string {
  return `${(n >>> 24) & 255}.${(n >>> 16) & 255}.${(n >>> 8) & 255}.${n & 255}`;
}

/** The zonal subnet a node of zone index `zone` gets its address from. */
export function zoneSubnet(zone: number): { cidr: string; base: number } {
  const base = ipToInt('10.0.0.0') + zone * 2 ** (32 - ZONE_SUBNET_BITS);
  return { cidr: `${intToIp(base)}/${ZONE_SUBNET_BITS}`, base };
}

/** The pod block of the node with this index. */
export function podBlock(index: number): { cidr: string; base: number } {
  const base = ipToInt('100.64.0.0') + index * 2 ** (32 - POD_BLOCK_BITS);
  return { cidr: `${intToIp(base)}/${POD_BLOCK_BITS}`, base };
}

/** Usable addresses in a pod block after the network address, the router and the health endpoint. */
export const POD_BLOCK_FIRST = 3;
export const POD_BLOCK_LAST = 254;

/** `ip-10-0-1-23.us-west-2.compute.internal`, the private DNS name EC2 gives an instance. */
export function ec2HostName(ip: string): string {
  return `ip-${ip.replaceAll('.', '-')}.${REGION}.compute.internal`;
}
