import type { Scenario } from './scenario.ts';

/**
 * Incident 2: the chart's `mount-cgroup` init container is off, so an agent in a private cgroup
 * namespace mounts its own container's cgroup and attaches the socket-LB hooks there. Nodes past
 * `brokenCgroupNodes` share the host's cgroup namespace (another AMI), so their mount is the
 * host's root: the runbook must tell the two apart per agent.
 */
export const cgroupPrivateNs: Scenario = {
  description:
    'Socket-LB hooks on the agent\'s own container cgroup: no mount-cgroup init container, agents in a private cgroup namespace, "Failed to mount cgroupv2" in their logs.',
  presets: { cgroupAutoMount: false },
  apply(builder, options) {
    const broken = options.brokenCgroupNodes ?? builder.nodes.length;
    for (const node of builder.nodes.slice(broken)) {
      builder.reconfigureAgent(node, (state) => {
        state.cgroup.privateNamespace = false;
      });
    }
    builder.plan.cgroup = {
      brokenNodes: builder.nodes.slice(0, broken).map((node) => node.name),
      healthyNodes: builder.nodes.slice(broken).map((node) => node.name),
    };
  },
};
