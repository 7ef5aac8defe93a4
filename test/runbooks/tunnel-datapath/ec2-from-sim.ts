import {
  DescribeInstancesCommand,
  type DescribeInstancesCommandInput,
  DescribeSecurityGroupsCommand,
  type DescribeSecurityGroupsCommandInput,
  EC2Client,
  type IpPermission,
} from '@aws-sdk/client-ec2';
import { type AwsClientStub, mockClient } from 'aws-sdk-client-mock';
import type { SecurityGroupRule } from '../../../sim/agent-state.ts';
import { R, type SimCluster } from '../../../sim/cluster.ts';
import type { KubeObject } from '../../../sim/objects.ts';

interface NodeObject extends KubeObject {
  spec?: { providerID?: string };
  status?: { addresses?: { type: string; address: string }[] };
}

/**
 * An EC2 client whose DescribeInstances and DescribeSecurityGroups answer from the simulated
 * cluster's AWS side (its security groups, and each node's instance and address), as EC2 would.
 * The mock replaces `send`, so nothing leaves the machine.
 */
export function ec2FromSim(cluster: SimCluster): { ec2: EC2Client; mock: AwsClientStub<EC2Client> } {
  const ec2 = new EC2Client({
    region: cluster.aws.region,
    credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'not-used' },
  });
  const mock = mockClient(ec2);
  mock.on(DescribeInstancesCommand).callsFake((input: DescribeInstancesCommandInput) => {
    const wanted = filterValues(input.Filters, 'instance-id');
    const instances = instanceAddresses(cluster)
      .filter(({ instanceId }) => wanted.has(instanceId))
      .map(({ instanceId, ip }) => {
        const groups = (cluster.aws.instanceSecurityGroups[instanceId] ?? []).map((GroupId) => ({ GroupId }));
        return {
          InstanceId: instanceId,
          PrivateIpAddress: ip,
          SecurityGroups: groups,
          NetworkInterfaces: [{ Attachment: { DeviceIndex: 0 }, PrivateIpAddress: ip, Groups: groups }],
        };
      });
    return { Reservations: instances.map((instance) => ({ Instances: [instance] })) };
  });
  mock.on(DescribeSecurityGroupsCommand).callsFake((input: DescribeSecurityGroupsCommandInput) => {
    const wanted = filterValues(input.Filters, 'group-id');
    return {
      SecurityGroups: cluster.aws.securityGroups
        .filter((group) => wanted.has(group.groupId))
        .map((group) => ({
          GroupId: group.groupId,
          GroupName: group.groupName,
          IpPermissions: group.ingress.map(permission),
        })),
    };
  });
  return { ec2, mock };
}

function filterValues(
  filters: { Name?: string; Values?: string[] }[] | undefined,
  name: string,
): Set<string> {
  return new Set(filters?.find((filter) => filter.Name === name)?.Values ?? []);
}

function instanceAddresses(cluster: SimCluster): { instanceId: string; ip?: string }[] {
  return (cluster.store.list(R.nodes, {}).items as NodeObject[]).map((node) => ({
    instanceId: node.spec?.providerID?.split('/').pop() ?? '',
    ip: node.status?.addresses?.find((address) => address.type === 'InternalIP')?.address,
  }));
}

function permission(rule: SecurityGroupRule): IpPermission {
  return {
    IpProtocol: rule.protocol,
    ...(rule.protocol === '-1' ? {} : { FromPort: rule.fromPort, ToPort: rule.toPort }),
    ...(rule.sourceGroupId ? { UserIdGroupPairs: [{ GroupId: rule.sourceGroupId }] } : {}),
    ...(rule.cidr ? { IpRanges: [{ CidrIp: rule.cidr }] } : {}),
  };
}
