import { stableNumber } from '../../format/hash.ts';
import type { CommandContext } from '../../types.ts';

/** The initial (host) namespaces' inode numbers; cgroup's is the fixed PROC_CGROUP_INIT_INO. */
const HOST_NAMESPACE_INODES = { cgroup: 4026531835, net: 4026531840, mnt: 4026531841 } as const;

export type NamespaceKind = keyof typeof HOST_NAMESPACE_INODES;

/**
 * `readlink /proc/self/ns/<kind>`: `cgroup:[4026531835]` when the container shares the host's
 * namespace, another stable inode when it has its own. The agent shares the host network (it is
 * hostNetwork) and shares the cgroup namespace unless the scenario gives it a private one.
 */
export function namespaceLink(ctx: CommandContext, kind: NamespaceKind): string {
  const shared =
    kind === 'net'
      ? Boolean(ctx.pod.spec.hostNetwork) || ctx.agent !== undefined
      : kind === 'cgroup'
        ? ctx.agent !== undefined && !ctx.agent.cgroup.privateNamespace
        : false;
  const inode = shared
    ? HOST_NAMESPACE_INODES[kind]
    : 4026532000 + (stableNumber(`${ctx.pod.metadata.uid ?? ctx.pod.metadata.name}/${kind}`) % 900);
  return `${kind}:[${inode}]`;
}
