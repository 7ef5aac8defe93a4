import type { CgroupLink } from './cgroup-links.ts';
import { ROOT_CGROUP_INODE } from './cgroup-signals.ts';
import type { CgroupTree, SocketHookPlacement } from './cgroup-tree.ts';
import { SOCKET_LB_HOOKS, type SocketLbHook } from './socket-hooks.ts';

/** `bpftool -j -f link show`, or why it could not be read (old kernels have no links at all). */
export type LinkListing = { links: CgroupLink[] } | { error: string };

/** Where each of Cilium's socket-LB hook types is, seen from the root walk and the link list. */
export interface HookSets {
  /** Hook types with a Cilium program on the root, in bpf_attach_type order. */
  onRoot: SocketLbHook[];
  /** Hook types with a Cilium program below the root, each with the cgroups that carry one. */
  below: Map<SocketLbHook, string[]>;
  /** Cilium's pinned cgroup links whose cgroup is not in the walk: a removed (dying) cgroup. */
  offTree: CgroupLink[];
  /** Other tools' programs on socket-LB attach types on the root. */
  foreignOnRoot: SocketHookPlacement[];
}

function withoutTrailingSlash(path: string): string {
  return path.length > 1 ? path.replace(/\/+$/, '') : path;
}

/**
 * Cilium's cgroup links that sit on no cgroup of the walk. A link whose program the walk lists is
 * on a walked cgroup, and so is any link on that cgroup's id (or on the root, id 1); a link on any
 * other cgroup id, or on 0 (its cgroup freed), is on a cgroup that was removed. Only links pinned
 * where Cilium pins them count: other tools' links are not this runbook's to report.
 */
function linksOffTree(tree: CgroupTree, listing: LinkListing): CgroupLink[] {
  if ('error' in listing) return [];
  const walked = new Set(tree.cgroups.flatMap((cgroup) => cgroup.programs.map((program) => program.id)));
  const walkedCgroups = new Set([
    ROOT_CGROUP_INODE,
    ...listing.links.filter((link) => walked.has(link.progId)).map((link) => link.cgroupId),
  ]);
  return listing.links.filter(
    (link) =>
      link.hook !== undefined &&
      link.ciliumProgram !== undefined &&
      !walked.has(link.progId) &&
      !walkedCgroups.has(link.cgroupId),
  );
}

export function hookSets(root: string, tree: CgroupTree, links: LinkListing): HookSets {
  const rootPath = withoutTrailingSlash(root);
  const isRoot = (placement: SocketHookPlacement) => withoutTrailingSlash(placement.cgroup) === rootPath;
  const onRoot = new Set(tree.socketHooks.filter(isRoot).map((placement) => placement.hook));
  const below = new Map<SocketLbHook, string[]>();
  for (const placement of tree.socketHooks.filter((p) => !isRoot(p))) {
    const cgroups = below.get(placement.hook) ?? [];
    if (!cgroups.includes(placement.cgroup)) cgroups.push(placement.cgroup);
    below.set(placement.hook, cgroups);
  }
  return {
    onRoot: SOCKET_LB_HOOKS.filter((hook) => onRoot.has(hook)),
    below,
    offTree: linksOffTree(tree, links),
    foreignOnRoot: tree.foreignHooks.filter(isRoot),
  };
}
