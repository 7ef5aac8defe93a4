import type { SimCluster } from '../cluster.ts';
import { R } from '../cluster.ts';
import { ec2HostName, intToIp, REGION, ZONES } from './addresses.ts';
import type { Allocations } from './allocations.ts';
import { makeSecurityGroups } from './aws.ts';
import { isoTime } from './make/meta.ts';
import { makeCiliumNode, makeNode, type NodeFacts, nodeGroupLabels } from './make/node.ts';
import type { ResolvedOptions } from './options.ts';

const ENI_POOL_SIZE = 64;
const NODEGROUPS = ['system', 'general'] as const;

/** One worker node and the facts scenarios place things by. */
export interface NodeRecord {
  name: string;
  uid: string;
  ip: string;
  instanceId: string;
  agentReady: boolean;
  healthIp: string;
}

/** Labels per node group and zone: the group's AMI and launch template, the zone's ids. */
function labelsByGroupAndZone(allocations: Allocations): Map<string, Readonly<Record<string, string>>> {
  const { random } = allocations;
  const labels = new Map<string, Readonly<Record<string, string>>>();
  for (const nodegroup of NODEGROUPS) {
    const ami = random.awsId('ami');
    const launchTemplate = random.awsId('lt');
    ZONES.forEach((zone, z) => {
      const zoneId = `usw2-az${z + 1}`;
      const cloudProviderHash = random.hex(32);
      labels.set(
        `${nodegroup}/${zone}`,
        nodeGroupLabels({ nodegroup, zone, zoneId, ami, launchTemplate, cloudProviderHash }),
      );
    });
  }
  return labels;
}

/**
 * The worker nodes: two managed node groups (a quarter `system`, the rest `general`) spread over
 * three zones, each node with its Node, its CiliumNode and its EC2 security group; the last
 * `agentNotReadyNodes` nodes have an agent that is not ready. Sets the cluster's AWS state.
 */
export function addNodes(
  cluster: SimCluster,
  options: ResolvedOptions,
  allocations: Allocations,
  createdAt: Date,
): NodeRecord[] {
  const { random, plan } = allocations;
  const systemNodes = Math.max(1, Math.floor(options.nodes / 4));
  const securityGroups = makeSecurityGroups(random, options, NODEGROUPS);
  const vpcId = random.awsId('vpc');
  const groupLabels = labelsByGroupAndZone(allocations);
  const instanceSecurityGroups: Record<string, string[]> = {};
  const created = isoTime(createdAt);
  const heartbeatAt = cluster.store.timestamp();
  const records: NodeRecord[] = [];
  for (let index = 0; index < options.nodes; index++) {
    const z = index % ZONES.length;
    const zone = ZONES[z] as string;
    // Spread within the zone's subnet, a few addresses apart, as EC2 hands them out.
    const ip = intToIp(plan.zoneSubnet(z).base + 16 + Math.floor(index / ZONES.length) * 4 + random.int(4));
    const nodegroup = index < systemNodes ? 'system' : 'general';
    const securityGroup = securityGroups.byNodegroup.get(nodegroup) as string;
    const facts: NodeFacts = {
      name: ec2HostName(ip),
      ip,
      zone,
      zoneId: `usw2-az${z + 1}`,
      instanceId: random.awsId('i'),
      nodegroup,
      groupLabels: groupLabels.get(`${nodegroup}/${zone}`) as Readonly<Record<string, string>>,
      createdAt: created,
      heartbeatAt,
      machineId: random.hex(32),
      systemUuid: `ec2${random.hex(5)}-${random.hex(4)}-${random.hex(4)}-${random.hex(4)}-${random.hex(12)}`,
      bootId: random.uuid(),
      agentReady: index < options.nodes - options.agentNotReadyNodes,
      maxPods: options.ipam === 'eni' ? 58 : 110,
    };
    instanceSecurityGroups[facts.instanceId] = [securityGroup];
    const node = cluster.store.create(R.nodes, makeNode(facts));
    const { name } = facts;
    const eni =
      options.ipam === 'eni'
        ? {
            id: random.awsId('eni'),
            mac: `0a:${random.hex(10).replace(/(..)(?!$)/g, '$1:')}`,
            subnetId: random.awsId('subnet'),
            subnetCidr: plan.zoneSubnet(z).cidr,
            vpcId,
            securityGroups: [securityGroup],
            pool: allocations.blockAddresses(name, ENI_POOL_SIZE),
          }
        : undefined;
    const cilium = {
      routerIp: allocations.routerIp(name),
      healthIp: allocations.healthIp(name),
      ...(eni ? { eni } : { podCidr: allocations.podCidr(name) }),
    };
    cluster.store.create(R.ciliumnodes, makeCiliumNode(node, facts, cilium));
    records.push({
      name,
      uid: node.metadata.uid as string,
      ip,
      instanceId: facts.instanceId,
      agentReady: facts.agentReady,
      healthIp: cilium.healthIp,
    });
  }
  cluster.aws = { region: REGION, securityGroups: securityGroups.all, instanceSecurityGroups };
  return records;
}
