import type { AgentPod } from '../../src/cluster/types.ts';
import type { Evidence, Finding } from '../../src/engine/types.ts';
import { type CgroupNamespace, ROOT_CGROUP_INODE } from './cgroup-signals.ts';
import type { CgroupTree, SocketHookPlacement } from './cgroup-tree.ts';

/** What one agent showed of its cgroup root, from inside its container. */
export interface AgentCgroupFacts {
  agent: AgentPod;
  /** The cgroup root the agent uses (cilium-config `cgroup-root`), as walked. */
  root: string;
  /** `stat -c %i <root>`: 1 only for the host's real cgroup root. */
  inode: number;
  namespace: CgroupNamespace;
  tree: CgroupTree;
}

export const HOOKS_NOT_ON_ROOT = 'SOCKET_LB_HOOKS_NOT_ON_ROOT';
export const HOOKS_MISSING = 'SOCKET_LB_HOOKS_MISSING';

function withoutTrailingSlash(path: string): string {
  return path.length > 1 ? path.replace(/\/+$/, '') : path;
}

function hooksBelow(facts: AgentCgroupFacts): SocketHookPlacement[] {
  const root = withoutTrailingSlash(facts.root);
  return facts.tree.socketHooks.filter((placement) => withoutTrailingSlash(placement.cgroup) !== root);
}

function namespaceText(namespace: CgroupNamespace): string {
  return `cgroup:[${namespace.inode}] (${namespace.host ? "the host's" : 'private'})`;
}

function hooksText(tree: CgroupTree): string {
  if (tree.socketHooks.length === 0) return 'none';
  const byCgroup = new Map<string, string[]>();
  for (const { cgroup, hook } of tree.socketHooks)
    byCgroup.set(cgroup, [...(byCgroup.get(cgroup) ?? []), hook]);
  return [...byCgroup].map(([cgroup, hooks]) => `${hooks.join(', ')} at ${cgroup}`).join('; ');
}

/** Both signals and the walk, for the report: from inside, a broken walk looks healthy; the inode tells. */
export function placementEvidence(facts: AgentCgroupFacts): Evidence {
  const container = facts.agent.containerId ? `; agent container ${facts.agent.containerId}` : '';
  return {
    source: `${facts.agent.node}: stat -c %i ${facts.root}; readlink /proc/self/ns/cgroup; bpftool cgroup tree ${facts.root}`,
    text: `inode ${facts.inode} (host root: ${ROOT_CGROUP_INODE}); namespace ${namespaceText(facts.namespace)}; socket-LB hooks: ${hooksText(facts.tree)}${container}`,
  };
}

/** The same for every node of a cluster, so reports can show it once. */
function fixFor(facts: AgentCgroupFacts): string {
  const { agent, root } = facts;
  return (
    `helm upgrade with cgroup.autoMount.enabled=true and cgroup.hostRoot=${root} (the mount-cgroup init container ` +
    `then mounts the host's cgroup2 there), then restart the agents: kubectl -n ${agent.namespace} rollout restart daemonset/cilium. ` +
    `Check on the node: bpftool cgroup tree /sys/fs/cgroup lists the cil_sock hooks on the root itself.`
  );
}

/**
 * Where an agent's socket-LB hooks sit. Healthy: its cgroup root is the host's (inode 1) and
 * Cilium's hooks are on that root. Any other inode means the hooks apply to a sub-cgroup (usually
 * the agent's own container), however the walk from inside looks.
 */
export function judgePlacement(facts: AgentCgroupFacts): Finding | undefined {
  const { agent, root, inode, tree } = facts;
  const below = hooksBelow(facts);
  const seen = tree.socketHooks.length > 0 ? '' : ', and no socket-LB hooks are attached under it';
  if (inode !== ROOT_CGROUP_INODE) {
    return {
      code: HOOKS_NOT_ON_ROOT,
      target: agent.node,
      severity: 'critical',
      message:
        `${agent.node}: socket-LB hooks are not on the host's cgroup root: ${root} has inode ${inode} (host root: 1), ` +
        `cgroup namespace ${namespaceText(facts.namespace)}${seen}; ClusterIP traffic from pods here is not translated.`,
      fix: fixFor(facts),
    };
  }
  const first = below[0];
  if (first) {
    return {
      code: HOOKS_NOT_ON_ROOT,
      target: agent.node,
      severity: 'critical',
      message: `${agent.node}: ${below.length} socket-LB hooks sit on ${first.cgroup}, below the host's cgroup root ${root}; ClusterIP traffic outside that cgroup is not translated.`,
      fix: fixFor(facts),
    };
  }
  if (tree.socketHooks.length === 0) {
    return {
      code: HOOKS_MISSING,
      target: agent.node,
      severity: 'warning',
      message: `${agent.node}: socket LB is on, but none of Cilium's socket-LB hooks is attached under ${root} (inode 1).`,
      fix: `Look for "Failed to mount cgroupv2" or attach errors in the agent log (kubectl -n ${agent.namespace} logs ${agent.name} -c cilium-agent), then restart the agent: kubectl -n ${agent.namespace} delete pod ${agent.name}.`,
    };
  }
  return undefined;
}
