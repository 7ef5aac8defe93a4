import {
  defineStep,
  type Evidence,
  instanceIdFromProviderId,
  type KubeObject,
  outcome,
  RESOURCES,
  type SecurityGroupRules,
  statusFor,
} from '../../../sdk/index.ts';
import type { TunnelDatapathParams } from '../params.ts';
import { blockedFinding, blockedIngress, describeRule, nodeTraffic } from '../security-groups.ts';
import { notApplicable, readRouting } from './routing-config.ts';

function instanceOf(node: KubeObject): { node: string; instanceId?: string } {
  const spec = node.spec as { providerID?: string } | undefined;
  return { node: node.metadata.name, instanceId: instanceIdFromProviderId(spec?.providerID) };
}

function ruleEvidence(group: SecurityGroupRules): Evidence {
  const name = group.groupName ? ` (${group.groupName})` : '';
  return {
    source: `ec2: ${group.groupId}${name}`,
    text: group.ingress.map(describeRule).join('; ') || 'no ingress rules',
  };
}

/**
 * The node security groups, read from EC2 through the cluster's connection (its account and
 * region), when the cluster has an AWS side: an EKS cluster, or `aws` on a kubeconfig cluster.
 */
export const securityGroupsStep = defineStep<TunnelDatapathParams>({
  id: 'security-groups',
  title: 'Node security groups allow the tunnel',
  writes: false,
  // Only tunnels cross the security groups, and only a cluster with an AWS side can read them.
  async when(ctx) {
    const routing = await readRouting(ctx);
    if (routing.mode === 'native') return notApplicable(routing).summary;
    if (!ctx.aws)
      return 'not checked: the cluster has no AWS side in the config (an eks cluster, or aws.region on a kubeconfig cluster)';
    return undefined;
  },
  async run(ctx) {
    const routing = await readRouting(ctx);
    const ec2 = ctx.aws?.ec2;
    if (routing.mode === 'native' || !ec2) throw new Error('security-groups ran where it does not apply');
    const agentNodes = new Set((await ctx.cilium.agents()).map((agent) => agent.node));
    const nodes = await ctx.kube.list(RESOURCES.nodes, { project: instanceOf });
    const instanceIds = nodes.flatMap(({ node, instanceId }) =>
      instanceId && agentNodes.has(node) ? [instanceId] : [],
    );
    if (instanceIds.length === 0) {
      return outcome('skip', 'not checked: no Cilium node is an EC2 instance (no aws:/// provider IDs)');
    }
    const networks = await ec2.instanceNetworks(instanceIds);
    const groups = await ec2.securityGroups([...new Set(networks.flatMap((network) => network.groupIds))]);
    const blocked = blockedIngress(networks, groups, nodeTraffic(routing));
    const findings = blocked.map((entry) => blockedFinding(entry, ec2.region));
    const evidence = [
      {
        source: 'ec2: DescribeInstances',
        text: `${networks.length} of ${instanceIds.length} node instances found`,
      },
      ...groups.map(ruleEvidence),
    ];
    const summary =
      findings.length > 0
        ? `${findings.length} of ${groups.length} node security groups block traffic the tunnel needs`
        : `${groups.length} node security groups allow the tunnel port, 4240/tcp and ICMP between nodes`;
    return outcome(statusFor(findings), summary, { findings, evidence });
  },
});
