import type { HookPlacement } from '../agent-state.ts';
import { stableHex } from '../exec/format/hash.ts';
import type { Scenario } from './scenario.ts';

/** The scope of the agent container before this one: the same pod slice, an earlier container id. */
function previousScope(containerPath: string): string {
  const slice = containerPath.slice(0, containerPath.lastIndexOf('/'));
  return `${slice}/cri-containerd-${stableHex(`${containerPath}/previous`, 64)}.scope`;
}

/** The hook types an upgrade added (Cilium attaches getpeername since 1.9): attached afresh on the root. */
const ADDED_HOOKS = ['getpeername4', 'getpeername6'];
const EARLIER_HOOKS = [
  'connect4',
  'connect6',
  'post_bind4',
  'post_bind6',
  'sendmsg4',
  'sendmsg6',
  'recvmsg4',
  'recvmsg6',
];

/**
 * Incident 2 after the fix half-landed: the agents now mount the host's cgroup2 root (the
 * mount-cgroup init container is on, or they share the host cgroup namespace), but each restarted
 * agent updated the cgroup links it had pinned in bpffs instead of attaching new ones, so its
 * socket-LB hooks stay where its previous container put them (cilium#27848, #27900, #48420). Nodes
 * past `brokenCgroupNodes` attached afresh on the root.
 */
function leftBehind(
  description: string,
  placements: (previous: string) => (string | HookPlacement)[],
): Scenario {
  return {
    description,
    apply(builder, options) {
      const broken = builder.nodes.slice(0, options.brokenCgroupNodes ?? builder.nodes.length);
      const hooksAt: Record<string, string> = {};
      for (const node of broken) {
        builder.reconfigureAgent(node, (state) => {
          const previous = previousScope(state.cgroup.containerPath);
          state.cgroup.privateNamespace = false;
          state.cgroup.hookCgroups = placements(previous);
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
}

/** The whole set on the previous container's scope, which still exists; the host root has none. */
export const cgroupHooksLeftBehind = leftBehind(
  "Socket-LB hooks left on each agent's previous container scope after a restart into the host cgroup namespace; the host root has none.",
  (previous) => [previous],
);

/**
 * A restart after an upgrade that added hook types: the earlier types updated in place on the
 * previous scope, the added ones attached afresh on the root. The root is not empty, yet pods
 * outside that scope get no ClusterIP translation for connect, sendmsg, recvmsg.
 */
export const cgroupHooksSplit = leftBehind(
  "Socket-LB hooks split after an upgrade and a restart: getpeername on the host root, the earlier types still on each agent's previous container scope.",
  (previous) => [
    { cgroup: previous, hooks: EARLIER_HOOKS },
    { cgroup: '/', hooks: ADDED_HOOKS },
  ],
);

/**
 * The previous container's scope was removed with its container, but sockets opened in it (the
 * vxlan device's) keep it dying, and the pinned links with it: `bpftool cgroup tree` shows no hooks
 * anywhere, `bpftool link show` still lists them with that cgroup's id. ClusterIP is down for every
 * pod on the node, and a restart changes nothing.
 */
export const cgroupHooksRemoved = leftBehind(
  "Socket-LB hooks on each agent's previous container scope, removed but kept alive by a socket: no hooks in the tree, the links still attached.",
  (previous) => [{ cgroup: previous, removed: true }],
);
