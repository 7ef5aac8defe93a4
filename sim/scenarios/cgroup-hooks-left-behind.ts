import { stableHex } from '../exec/format/hash.ts';
import type { Scenario } from './scenario.ts';

/** The scope of the agent container before this one: the same pod slice, an earlier container id. */
function previousScope(containerPath: string): string {
  const slice = containerPath.slice(0, containerPath.lastIndexOf('/'));
  return `${slice}/cri-containerd-${stableHex(`${containerPath}/previous`, 64)}.scope`;
}

/**
 * Incident 2, after the fix half-landed: the agents now mount the host's cgroup2 root (the
 * mount-cgroup init container is on, or they share the host cgroup namespace), but each restarted
 * agent updated the cgroup links it had pinned in bpffs instead of attaching new ones, so its
 * socket-LB hooks still sit on its previous container's scope and the host root has none
 * (cilium#27848, #27900, #48420). From inside, the root is inode 1 and `bpftool cgroup show` of it
 * prints nothing. Nodes past `brokenCgroupNodes` attached afresh on the root.
 */
export const cgroupHooksLeftBehind: Scenario = {
  description:
    "Socket-LB hooks left on each agent's previous container scope after a restart into the host cgroup namespace; the host root has none.",
  apply(builder, options) {
    const broken = builder.nodes.slice(0, options.brokenCgroupNodes ?? builder.nodes.length);
    const hooksAt: Record<string, string> = {};
    for (const node of broken) {
      builder.reconfigureAgent(node, (state) => {
        const previous = previousScope(state.cgroup.containerPath);
        state.cgroup.privateNamespace = false;
        state.cgroup.hookCgroups = [previous];
        hooksAt[node.name] = previous;
      });
    }
    builder.plan.cgroup = {
      brokenNodes: broken.map((node) => node.name),
      healthyNodes: builder.nodes.slice(broken.length).map((node) => node.name),
      hooksAt,
    };
  },
};
