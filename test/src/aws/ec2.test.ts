import { DescribeInstancesCommand, DescribeSecurityGroupsCommand, EC2Client } from '@aws-sdk/client-ec2';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import {
  allowsBetween,
  cidrContains,
  ec2Reader,
  type IngressRule,
  instanceIdFromProviderId,
  type SecurityGroupRules,
} from '../../../src/aws/ec2.ts';

const group = (ingress: Partial<IngressRule>[]): SecurityGroupRules => ({
  groupId: 'sg-node',
  ingress: ingress.map((rule) => ({ protocol: 'tcp', sourceGroupIds: [], cidrs: [], ...rule })),
});
const FROM_NODES = { groupIds: ['sg-node'], addresses: ['10.0.1.5', '10.0.2.17'] };
const VXLAN = { protocol: 'udp', port: 8472 } as const;
const HEALTH = { protocol: 'tcp', port: 4240 } as const;
const ECHO = { protocol: 'icmp', port: 8 } as const;

describe('allowsBetween', () => {
  it('matches a rule by source security group, protocol and port', () => {
    const groups = [group([{ protocol: 'udp', fromPort: 8472, toPort: 8472, sourceGroupIds: ['sg-node'] }])];
    expect(allowsBetween(groups, VXLAN, FROM_NODES)).toBe(true);
    expect(allowsBetween(groups, { protocol: 'udp', port: 6081 }, FROM_NODES)).toBe(false);
    expect(allowsBetween(groups, { protocol: 'tcp', port: 8472 }, FROM_NODES)).toBe(false);
    expect(allowsBetween(groups, VXLAN, { groupIds: ['sg-other'], addresses: [] })).toBe(false);
  });

  it('treats protocol -1 as all traffic', () => {
    const groups = [group([{ protocol: '-1', sourceGroupIds: ['sg-node'] }])];
    for (const traffic of [VXLAN, HEALTH, ECHO])
      expect(allowsBetween(groups, traffic, FROM_NODES)).toBe(true);
  });

  it('matches port ranges and the full range of a rule without ports', () => {
    const ranged = [group([{ protocol: 'tcp', fromPort: 1025, toPort: 65535, sourceGroupIds: ['sg-node'] }])];
    expect(allowsBetween(ranged, HEALTH, FROM_NODES)).toBe(true);
    expect(allowsBetween(ranged, { protocol: 'tcp', port: 443 }, FROM_NODES)).toBe(false);
    expect(
      allowsBetween([group([{ protocol: 'tcp', sourceGroupIds: ['sg-node'] }])], HEALTH, FROM_NODES),
    ).toBe(true);
  });

  it('matches ICMP by type and code, -1 meaning all', () => {
    const icmp = (fromPort: number, toPort: number) => [
      group([{ protocol: 'icmp', fromPort, toPort, sourceGroupIds: ['sg-node'] }]),
    ];
    expect(allowsBetween(icmp(-1, -1), ECHO, FROM_NODES)).toBe(true);
    expect(allowsBetween(icmp(8, -1), ECHO, FROM_NODES)).toBe(true);
    expect(allowsBetween(icmp(8, 0), ECHO, FROM_NODES)).toBe(true);
    expect(allowsBetween(icmp(3, 4), ECHO, FROM_NODES)).toBe(false);
    expect(allowsBetween(icmp(-1, -1), VXLAN, FROM_NODES)).toBe(false);
  });

  it('matches a CIDR rule only when it covers every source node', () => {
    const vpc = [group([{ protocol: 'udp', fromPort: 8472, toPort: 8472, cidrs: ['10.0.0.0/16'] }])];
    expect(allowsBetween(vpc, VXLAN, FROM_NODES)).toBe(true);
    const subnet = [group([{ protocol: 'udp', fromPort: 8472, toPort: 8472, cidrs: ['10.0.1.0/24'] }])];
    expect(allowsBetween(subnet, VXLAN, FROM_NODES)).toBe(false);
    expect(allowsBetween(vpc, VXLAN, { groupIds: [], addresses: [] })).toBe(false);
  });

  it('allows what any of the receiving groups allows', () => {
    const cluster = {
      groupId: 'sg-cluster',
      ingress: [{ protocol: '-1', sourceGroupIds: ['sg-node'], cidrs: [] }],
    };
    expect(allowsBetween([group([]), cluster], VXLAN, FROM_NODES)).toBe(true);
    expect(allowsBetween([group([])], VXLAN, FROM_NODES)).toBe(false);
  });
});

describe('cidrContains', () => {
  it('compares the network bits', () => {
    expect(cidrContains('10.0.0.0/8', '10.200.3.4')).toBe(true);
    expect(cidrContains('10.0.0.0/8', '11.0.0.1')).toBe(false);
    expect(cidrContains('0.0.0.0/0', '192.168.1.1')).toBe(true);
    expect(cidrContains('10.0.1.5/32', '10.0.1.5')).toBe(true);
    expect(cidrContains('10.0.1.5/32', '10.0.1.6')).toBe(false);
    expect(cidrContains('192.168.0.0/17', '192.168.128.1')).toBe(false);
  });

  it('rejects what is not IPv4', () => {
    expect(cidrContains('::/0', '10.0.0.1')).toBe(false);
    expect(cidrContains('10.0.0.0/33', '10.0.0.1')).toBe(false);
    expect(cidrContains('10.0.0.0/8', '10.0.0.256')).toBe(false);
  });
});

describe('instanceIdFromProviderId', () => {
  it('reads EC2 provider IDs only', () => {
    expect(instanceIdFromProviderId('aws:///us-west-2a/i-0123456789abcdef0')).toBe('i-0123456789abcdef0');
    expect(instanceIdFromProviderId('aws:///us-west-2a/fargate-ip-10-0-1-5')).toBeUndefined();
    expect(instanceIdFromProviderId('kind://docker/kind/kind-worker')).toBeUndefined();
    expect(instanceIdFromProviderId(undefined)).toBeUndefined();
  });
});

describe('EC2 readers', () => {
  const ec2 = new EC2Client({
    region: 'us-west-2',
    credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'x' },
  });
  const mock = mockClient(ec2);
  afterEach(() => mock.reset());

  it("reads each instance's primary interface, following NextToken", async () => {
    mock
      .on(DescribeInstancesCommand, { NextToken: undefined })
      .resolves({
        Reservations: [
          {
            Instances: [
              {
                InstanceId: 'i-1',
                PrivateIpAddress: '10.0.1.5',
                SecurityGroups: [{ GroupId: 'sg-instance' }],
                NetworkInterfaces: [
                  {
                    Attachment: { DeviceIndex: 1 },
                    PrivateIpAddress: '10.0.9.9',
                    Groups: [{ GroupId: 'sg-pods' }],
                  },
                  {
                    Attachment: { DeviceIndex: 0 },
                    PrivateIpAddress: '10.0.1.5',
                    Groups: [{ GroupId: 'sg-node' }],
                  },
                ],
              },
            ],
          },
        ],
        NextToken: 'page-2',
      })
      .on(DescribeInstancesCommand, { NextToken: 'page-2' })
      .resolves({
        Reservations: [
          {
            Instances: [
              { InstanceId: 'i-2', PrivateIpAddress: '10.0.2.17', SecurityGroups: [{ GroupId: 'sg-a' }] },
            ],
          },
        ],
      });
    await expect(ec2Reader(ec2, 'eu-west-1').instanceNetworks(['i-1', 'i-2'])).resolves.toEqual([
      { instanceId: 'i-1', privateIp: '10.0.1.5', groupIds: ['sg-node'] },
      { instanceId: 'i-2', privateIp: '10.0.2.17', groupIds: ['sg-a'] },
    ]);
    expect(mock.commandCalls(DescribeInstancesCommand)[0]?.args[0].input.Filters).toEqual([
      { Name: 'instance-id', Values: ['i-1', 'i-2'] },
    ]);
  });

  it('asks for at most 200 instances per call', async () => {
    mock.on(DescribeInstancesCommand).resolves({ Reservations: [] });
    await ec2Reader(ec2, 'eu-west-1').instanceNetworks(Array.from({ length: 450 }, (_, i) => `i-${i}`));
    const sizes = mock
      .commandCalls(DescribeInstancesCommand)
      .map((call) => call.args[0].input.Filters?.[0]?.Values?.length);
    expect(sizes).toEqual([200, 200, 50]);
  });

  it('reads ingress rules, naming numeric protocols', async () => {
    mock.on(DescribeSecurityGroupsCommand).resolves({
      SecurityGroups: [
        {
          GroupId: 'sg-node',
          GroupName: 'nodes',
          IpPermissions: [
            { IpProtocol: '17', FromPort: 8472, ToPort: 8472, UserIdGroupPairs: [{ GroupId: 'sg-node' }] },
            { IpProtocol: '-1', IpRanges: [{ CidrIp: '10.0.0.0/16' }] },
          ],
        },
      ],
    });
    await expect(ec2Reader(ec2, 'eu-west-1').securityGroups(['sg-node'])).resolves.toEqual([
      {
        groupId: 'sg-node',
        groupName: 'nodes',
        ingress: [
          { protocol: 'udp', fromPort: 8472, toPort: 8472, sourceGroupIds: ['sg-node'], cidrs: [] },
          {
            protocol: '-1',
            fromPort: undefined,
            toPort: undefined,
            sourceGroupIds: [],
            cidrs: ['10.0.0.0/16'],
          },
        ],
      },
    ]);
  });

  it('names the call and the permission when EC2 denies it', async () => {
    const denied = Object.assign(new Error('You are not authorized to perform this operation.'), {
      name: 'UnauthorizedOperation',
    });
    mock.on(DescribeSecurityGroupsCommand).rejects(denied);
    await expect(ec2Reader(ec2, 'eu-west-1').securityGroups(['sg-node'])).rejects.toThrow(
      "not allowed to call ec2:DescribeSecurityGroups (UnauthorizedOperation: You are not authorized to perform this operation.); grant ec2:DescribeSecurityGroups to the responder's IAM role",
    );
  });

  it('names the call on other failures', async () => {
    mock
      .on(DescribeInstancesCommand)
      .rejects(Object.assign(new Error('Rate exceeded'), { name: 'RequestLimitExceeded' }));
    await expect(ec2Reader(ec2, 'eu-west-1').instanceNetworks(['i-1'])).rejects.toThrow(
      'ec2:DescribeInstances failed (RequestLimitExceeded: Rate exceeded)',
    );
  });
});
