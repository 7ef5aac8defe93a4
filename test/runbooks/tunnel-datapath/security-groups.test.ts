import { describe, expect, it } from 'vitest';
import {
  blockedFinding,
  blockedIngress,
  describeRule,
  nodeTraffic,
} from '../../../runbooks/tunnel-datapath/security-groups.ts';
import type { IngressRule, InstanceNetwork, SecurityGroupRules } from '../../../src/aws/ec2.ts';

const NEEDS = nodeTraffic({ mode: 'tunnel', protocol: 'vxlan', port: 8472 });
const rule = (protocol: string, port: number, from: string): IngressRule => ({
  protocol,
  fromPort: port,
  toPort: port,
  sourceGroupIds: [from],
  cidrs: [],
});
const open = (from: string[]): IngressRule[] =>
  from.flatMap((source) => [rule('udp', 8472, source), rule('tcp', 4240, source), rule('icmp', -1, source)]);

const NODES: InstanceNetwork[] = [
  { instanceId: 'i-1', privateIp: '10.0.1.5', groupIds: ['sg-system'] },
  { instanceId: 'i-2', privateIp: '10.0.2.17', groupIds: ['sg-general'] },
  { instanceId: 'i-3', privateIp: '10.0.3.9', groupIds: ['sg-general'] },
];
const both = ['sg-system', 'sg-general'];

describe('nodeTraffic', () => {
  it('needs the tunnel port, 4240/tcp and ICMP echo', () => {
    expect(NEEDS.map((need) => [need.protocol, need.port, need.label])).toEqual([
      ['udp', 8472, 'udp/8472 (VXLAN)'],
      ['tcp', 4240, 'tcp/4240 (cilium-health)'],
      ['icmp', 8, 'ICMP'],
    ]);
    expect(nodeTraffic({ mode: 'tunnel', protocol: 'geneve', port: 6081 })[0]?.label).toBe(
      'udp/6081 (Geneve)',
    );
  });
});

describe('blockedIngress', () => {
  it('finds nothing when every group lets every node group in', () => {
    const groups = both.map((groupId) => ({ groupId, ingress: open(both) }));
    expect(blockedIngress(NODES, groups, NEEDS)).toEqual([]);
  });

  it('reports each group missing the tunnel port, with the groups it should let in', () => {
    const groups: SecurityGroupRules[] = [
      { groupId: 'sg-system', groupName: 'system', ingress: open(both).filter((r) => r.protocol !== 'udp') },
      { groupId: 'sg-general', ingress: open(both) },
    ];
    const blocked = blockedIngress(NODES, groups, NEEDS);
    expect(
      blocked.map(({ group, missing }) => [
        group.groupId,
        missing.map((m) => [m.traffic.label, m.fromGroups]),
      ]),
    ).toEqual([['sg-system', [['udp/8472 (VXLAN)', ['sg-general', 'sg-system']]]]]);
  });

  it('reports only the sources a group does not let in', () => {
    const groups: SecurityGroupRules[] = [
      { groupId: 'sg-system', ingress: open(both) },
      {
        groupId: 'sg-general',
        ingress: [...open(['sg-general']), rule('udp', 8472, 'sg-system'), rule('tcp', 4240, 'sg-system')],
      },
    ];
    const [blocked] = blockedIngress(NODES, groups, NEEDS);
    expect(blocked?.group.groupId).toBe('sg-general');
    expect(blocked?.missing.map((m) => [m.traffic.label, m.fromGroups])).toEqual([['ICMP', ['sg-system']]]);
  });

  it('accepts a CIDR rule that covers the sending nodes', () => {
    const vpc: IngressRule = { protocol: '-1', sourceGroupIds: [], cidrs: ['10.0.0.0/16'] };
    const groups = both.map((groupId) => ({ groupId, ingress: [vpc] }));
    expect(blockedIngress(NODES, groups, NEEDS)).toEqual([]);
  });

  it('is satisfied by any group of a node with several', () => {
    const nodes = NODES.map((node) => ({ ...node, groupIds: [...node.groupIds, 'sg-cluster'] }));
    const groups: SecurityGroupRules[] = [
      { groupId: 'sg-system', ingress: [] },
      { groupId: 'sg-general', ingress: [] },
      { groupId: 'sg-cluster', ingress: [{ protocol: '-1', sourceGroupIds: ['sg-cluster'], cidrs: [] }] },
    ];
    expect(blockedIngress(nodes, groups, NEEDS)).toEqual([]);
  });

  it('blames a group EC2 did not return as having no rules', () => {
    const blocked = blockedIngress(NODES, [{ groupId: 'sg-general', ingress: open(both) }], NEEDS);
    expect(blocked.map(({ group, missing }) => [group.groupId, missing.length])).toEqual([['sg-system', 3]]);
  });
});

describe('blockedFinding', () => {
  it('says what is not allowed from where, and gives the exact command', () => {
    const finding = blockedFinding(
      {
        group: { groupId: 'sg-system', groupName: 'sim-system-node', ingress: [] },
        missing: [
          { traffic: NEEDS[0] as (typeof NEEDS)[number], fromGroups: ['sg-general', 'sg-system'] },
          { traffic: NEEDS[2] as (typeof NEEDS)[number], fromGroups: ['sg-system'] },
        ],
      },
      'us-west-2',
    );
    expect(finding).toEqual({
      code: 'TUNNEL_PORT_BLOCKED',
      target: 'sg-system',
      severity: 'critical',
      message:
        'sg-system (sim-system-node) does not allow udp/8472 (VXLAN) from sg-general, sg-system; ICMP from sg-system',
      fix:
        'aws ec2 authorize-security-group-ingress --region us-west-2 --group-id sg-system --ip-permissions ' +
        "'IpProtocol=udp,FromPort=8472,ToPort=8472,UserIdGroupPairs=[{GroupId=sg-general},{GroupId=sg-system}]' " +
        "'IpProtocol=icmp,FromPort=-1,ToPort=-1,UserIdGroupPairs=[{GroupId=sg-system}]'",
    });
  });
});

describe('describeRule', () => {
  it('names protocol, ports and sources', () => {
    expect(describeRule(rule('udp', 8472, 'sg-1'))).toBe('udp 8472 from sg-1');
    expect(
      describeRule({
        protocol: 'tcp',
        fromPort: 1025,
        toPort: 65535,
        sourceGroupIds: [],
        cidrs: ['10.0.0.0/16'],
      }),
    ).toBe('tcp 1025-65535 from 10.0.0.0/16');
    expect(describeRule(rule('icmp', -1, 'sg-1'))).toBe('icmp all from sg-1');
    expect(describeRule({ protocol: '-1', sourceGroupIds: ['sg-1', 'sg-2'], cidrs: [] })).toBe(
      'all from sg-1, sg-2',
    );
    expect(describeRule({ protocol: 'tcp', fromPort: 443, toPort: 443, sourceGroupIds: [], cidrs: [] })).toBe(
      'tcp 443 from a prefix list or IPv6 range (not checked)',
    );
  });
});
