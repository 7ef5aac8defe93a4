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
export const HOOKS_ALSO_NESTED = 'SOCKET_LB_HOOKS_ALSO_NESTED';

function withoutTrailingSlash(path: string): string {
  return path.length > 1 ? path.replace(/\/+$/, '') : path;
}

function isRoot(facts: AgentCgroupFacts, placement: SocketHookPlacement): boolean {
  return withoutTrailingSlash(placement.cgroup) === withoutTrailingSlash(facts.root);
}

/** The cgroups below the root that carry hooks, each once, in walk order. */
function cgroupsOf(placements: readonly SocketHookPlacement[]): string[] {
  return [...new Set(placements.map((placement) => placement.cgroup))];
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
 * The mount is right (inode 1) but the hooks are not on it: a restarted agent updates the cgroup
 * links it pinned in bpffs instead of attaching new ones, so they stay where an earlier agent put
 * them. Removing the pins makes the next agent attach afresh, on its root.
 */
function reattachFix(facts: AgentCgroupFacts): string {
  const { agent } = facts;
  return (
    `On ${agent.node}, remove the agent's pinned cgroup links (rm /sys/fs/bpf/cilium/socketlb/links/cgroup/*, from a debug pod with the host's /sys/fs/bpf), ` +
    `then restart its agent so it attaches them to the root: kubectl -n ${agent.namespace} delete pod ${agent.name}. ` +
    `Check on the node: bpftool cgroup tree /sys/fs/cgroup lists the cil_sock hooks on the root itself.`
  );
}

/**
 * Where an agent's socket-LB hooks sit. Healthy: its cgroup root is the host's (inode 1) and
 * Cilium's hooks are on that root. Any other inode means the hooks apply to a sub-cgroup (usually
 * the agent's own container), however the walk from inside looks. On the host's root, hooks only
 * below it are the state an agent restarted out of a private cgroup namespace leaves behind; hooks
 * on the root and below it too work (the root's apply everywhere), but the nested set is a leftover
 * worth a look, so it is named in an info finding.
 */
export function judgePlacement(facts: AgentCgroupFacts): Finding | undefined {
  const { agent, root, inode, tree } = facts;
  const below = tree.socketHooks.filter((placement) => !isRoot(facts, placement));
  const onRoot = tree.socketHooks.length - below.length;
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
  const nested = cgroupsOf(below);
  if (onRoot === 0 && nested.length > 0) {
    return {
      code: HOOKS_NOT_ON_ROOT,
      target: agent.node,
      severity: 'critical',
      message: `${agent.node}: the host's cgroup root ${root} has no socket-LB hooks; ${below.length} sit below it on ${listOf(nested)}; ClusterIP traffic outside that cgroup is not translated.`,
      fix: reattachFix(facts),
    };
  }
  if (onRoot === 0) {
    return {
      code: HOOKS_MISSING,
      target: agent.node,
      severity: 'warning',
      message: `${agent.node}: socket LB is on, but none of Cilium's socket-LB hooks is attached under ${root} (inode 1).`,
      fix: `Look for "Failed to mount cgroupv2" or attach errors in the agent log (kubectl -n ${agent.namespace} logs ${agent.name} -c cilium-agent), then restart the agent: kubectl -n ${agent.namespace} delete pod ${agent.name}.`,
    };
  }
  if (nested.length > 0) {
    return {
      code: HOOKS_ALSO_NESTED,
      target: agent.node,
      severity: 'info',
      message: `${agent.node}: the socket-LB hooks are on the host's cgroup root ${root}, and a second set of ${below.length} sits below it on ${listOf(nested)} (a leftover of an earlier attach; traffic is translated by the root's).`,
      fix: `On the node, bpftool cgroup tree /sys/fs/cgroup shows both sets. The nested set goes with its cgroup (when that container ends), or detach it: bpftool cgroup detach <cgroup> <attach type> id <program id> (bpftool link detach id <link id> for a link).`,
    };
  }
  return undefined;
}

/** A few cgroup paths, then how many more. */
function listOf(paths: readonly string[]): string {
  return paths.length > 2
    ? `${paths.slice(0, 2).join(', ')} and ${paths.length - 2} more`
    : paths.join(' and ');
}
