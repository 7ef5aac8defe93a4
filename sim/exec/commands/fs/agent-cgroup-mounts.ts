import type { AgentState } from '../../../agent-state.ts';
import type { SimCluster } from '../../../cluster.ts';
import { stableNumber } from '../../format/hash.ts';
import { type Cgroup, findCgroup, hostCgroupTree } from '../bpftool/cgroup-hierarchy.ts';
import { normalizePath, relativeTo } from './paths.ts';

export const CONTAINER_CGROUP_MOUNT = '/sys/fs/cgroup';

/**
 * The two cgroup2 mounts inside the agent container and the host cgroup each one shows as its
 * root: the configured cgroup root (`/run/cilium/cgroupv2`), which is the host's root only when
 * the mount-cgroup fix worked, and the runtime's `/sys/fs/cgroup`, which is the container's own
 * cgroup when the container has a private cgroup namespace.
 */
function agentCgroupMounts(agent: AgentState): { mountPoint: string; hostRoot: string }[] {
  return [
    {
      mountPoint: normalizePath(agent.cgroup.root),
      hostRoot: agent.cgroup.mountIsHostRoot ? '/' : agent.cgroup.containerPath,
    },
    {
      mountPoint: CONTAINER_CGROUP_MOUNT,
      hostRoot: agent.cgroup.privateNamespace ? agent.cgroup.containerPath : '/',
    },
  ];
}

export interface AgentCgroup {
  cgroup: Cgroup;
  hostPath: string;
}

/** The host cgroup a path inside the agent container names, if the path is (under) a cgroup2 mount and exists. */
export function resolveAgentCgroup(
  cluster: SimCluster,
  agent: AgentState,
  path: string,
): AgentCgroup | undefined {
  const normalized = normalizePath(path);
  for (const mount of agentCgroupMounts(agent)) {
    const rest = relativeTo(normalized, mount.mountPoint);
    if (rest === undefined) continue;
    const hostPath = normalizePath(`${mount.hostRoot}/${rest}`);
    const cgroup = findCgroup(hostCgroupTree(cluster, agent), hostPath);
    return cgroup ? { cgroup, hostPath } : undefined;
  }
  return undefined;
}

/** A cgroup's inode: the v2 root is always 1; the agent's own scope is the scenario's; others are stable. */
export function cgroupInode(agent: AgentState, hostPath: string): number {
  if (hostPath === '/') return 1;
  if (hostPath === normalizePath(agent.cgroup.containerPath)) return agent.cgroup.containerInode;
  return 2 + (stableNumber(hostPath) % 90_000);
}
