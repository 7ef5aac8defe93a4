import type { AgentPod, Evidence, Finding } from '../../sdk/index.ts';
import type { CgroupLink } from './cgroup-links.ts';
import { CGROUP2_FS, type CgroupNamespace, ROOT_CGROUP_INODE } from './cgroup-signals.ts';
import type { CgroupTree, SocketHookPlacement } from './cgroup-tree.ts';
import { mountThenPinsFix, removePinsFix } from './fixes.ts';
import { type HookSets, hookSets, type LinkListing } from './hook-sets.ts';
import { SOCKET_LB_HOOKS, type SocketLbHook } from './socket-hooks.ts';

/** What one agent showed of its cgroup root, from inside its container. */
export interface AgentCgroupFacts {
  agent: AgentPod;
  /** The cgroup root the agent uses (cilium-config `cgroup-root`), as walked. */
  root: string;
  /** `stat -c %i <root>`: 1 for the host's real cgroup root (and for any other filesystem's root). */
  inode: number;
  /** `stat -f -c %T <root>`: `cgroup2fs` for a cgroup v2 mount. */
  fsType: string;
  namespace: CgroupNamespace;
  tree: CgroupTree;
  links: LinkListing;
}

export const HOOKS_NOT_ON_ROOT = 'SOCKET_LB_HOOKS_NOT_ON_ROOT';
export const HOOKS_ON_REMOVED_CGROUP = 'SOCKET_LB_HOOKS_ON_REMOVED_CGROUP';
export const HOOKS_MISSING = 'SOCKET_LB_HOOKS_MISSING';
export const HOOKS_ALSO_NESTED = 'SOCKET_LB_HOOKS_ALSO_NESTED';
export const ROOT_NOT_CGROUP2 = 'CGROUP_ROOT_NOT_CGROUP2';

function namespaceText(namespace: CgroupNamespace): string {
  return `cgroup:[${namespace.inode}] (${namespace.host ? "the host's" : 'private'})`;
}

/** A few items, then how many more. */
function listOf(items: readonly string[], shown = 2): string {
  return items.length > shown
    ? `${items.slice(0, shown).join(', ')} and ${items.length - shown} more`
    : items.join(' and ');
}

/** Hook types grouped by the cgroups that carry them: `connect4, connect6 on /a; sendmsg4 on /b`. */
function byCgroup(hooks: readonly SocketLbHook[], below: HookSets['below']): string {
  const groups = new Map<string, SocketLbHook[]>();
  for (const hook of hooks) {
    const key = listOf(below.get(hook) ?? []);
    groups.set(key, [...(groups.get(key) ?? []), hook]);
  }
  return [...groups].map(([cgroups, types]) => `${types.join(', ')} on ${cgroups}`).join('; ');
}

function programText(placement: SocketHookPlacement): string {
  return `${placement.name || 'an unnamed program'} (id ${placement.programId}) on ${placement.hook}`;
}

/** What the root has: Cilium's types, and other tools' programs that do not stand in for them. */
function rootText(sets: HookSets): string {
  const cilium = sets.onRoot.length > 0 ? `Cilium's ${sets.onRoot.join(', ')}` : "none of Cilium's hooks";
  const foreign = sets.foreignOnRoot.map(programText);
  return foreign.length > 0
    ? `${cilium}, and other tools' ${listOf(foreign, 3)}, which are not Cilium's`
    : cilium;
}

function linkText(link: CgroupLink): string {
  return `link ${link.id} (${link.ciliumProgram}, prog ${link.progId}, cgroup id ${link.cgroupId})`;
}

function hooksText(facts: AgentCgroupFacts): string {
  const { tree } = facts;
  if (facts.fsType !== CGROUP2_FS) return 'not walked (not cgroup2)';
  if (tree.socketHooks.length === 0) return 'none';
  const byPath = new Map<string, string[]>();
  for (const { cgroup, hook } of tree.socketHooks) byPath.set(cgroup, [...(byPath.get(cgroup) ?? []), hook]);
  return [...byPath].map(([cgroup, hooks]) => `${hooks.join(', ')} at ${cgroup}`).join('; ');
}

/** Where the agent's hooks sit, located once for both its judgement and its evidence. */
export const hookSetsOf = (facts: AgentCgroupFacts): HookSets =>
  hookSets(facts.root, facts.tree, facts.links);

function linksText(facts: AgentCgroupFacts, sets: HookSets): string {
  if ('error' in facts.links) return `links: not read (${facts.links.error})`;
  const off = sets.offTree;
  return off.length > 0 ? `links off the tree: ${off.map(linkText).join(', ')}` : 'links off the tree: none';
}

/** The signals and the walk, for the report: from inside, a broken walk looks healthy; inode and type tell. */
export function placementEvidence(facts: AgentCgroupFacts, sets = hookSetsOf(facts)): Evidence {
  const container = facts.agent.containerId ? `; agent container ${facts.agent.containerId}` : '';
  return {
    source: `${facts.agent.node}: stat -c %i, stat -f -c %T ${facts.root}; readlink /proc/self/ns/cgroup; bpftool cgroup tree ${facts.root}; bpftool link show`,
    text: `inode ${facts.inode} (host root: ${ROOT_CGROUP_INODE}), ${facts.fsType}; namespace ${namespaceText(facts.namespace)}; socket-LB hooks: ${hooksText(facts)}; ${linksText(facts, sets)}${container}`,
  };
}

function finding(
  facts: AgentCgroupFacts,
  code: string,
  severity: Finding['severity'],
  message: string,
  fix: string,
): Finding {
  return { code, target: facts.agent.node, severity, message: `${facts.agent.node}: ${message}`, fix };
}

/** Inode 1 is any filesystem's root (a tmpfs mounted there has it too): only a cgroup2 mount can be judged. */
function notCgroup2(facts: AgentCgroupFacts): Finding {
  const { agent, root, fsType } = facts;
  return finding(
    facts,
    ROOT_NOT_CGROUP2,
    'warning',
    `${root} is a ${fsType} mount, not cgroup2 (stat -f -c %T), so where the socket-LB hooks sit cannot be judged.`,
    `Check what is mounted there: kubectl -n ${agent.namespace} exec ${agent.name} -c cilium-agent -- grep ${root} /proc/self/mounts. ` +
      `cilium-config cgroup-root must be the host's cgroup2, which the chart's mount-cgroup init container mounts (cgroup.autoMount.enabled=true, cgroup.hostRoot=${root}).`,
  );
}

function notHostRoot(facts: AgentCgroupFacts): Finding {
  const { root, inode, tree } = facts;
  const seen = tree.socketHooks.length > 0 ? '' : ', and no socket-LB hooks are attached under it';
  return finding(
    facts,
    HOOKS_NOT_ON_ROOT,
    'critical',
    `socket-LB hooks are not on the host's cgroup root: ${root} has inode ${inode} (host root: 1), ` +
      `cgroup namespace ${namespaceText(facts.namespace)}${seen}; ClusterIP traffic from pods here is not translated.`,
    mountThenPinsFix(facts.agent, root),
  );
}

/** Hook types Cilium has only below the root: the whole set, or the part a restart after an upgrade left there. */
function onlyBelow(facts: AgentCgroupFacts, sets: HookSets, hooks: SocketLbHook[]): Finding {
  const cgroups = [...new Set(hooks.flatMap((hook) => sets.below.get(hook) ?? []))];
  return finding(
    facts,
    HOOKS_NOT_ON_ROOT,
    'critical',
    `${hooks.length} of Cilium's socket-LB hook types are not on the host's cgroup root ${facts.root}, only below it: ` +
      `${byCgroup(hooks, sets.below)}. The root has ${rootText(sets)}. ` +
      `Pods outside ${cgroups.length > 1 ? 'those cgroups' : 'that cgroup'} get no ClusterIP translation from ${hooks.length > 1 ? 'those hooks' : 'that hook'}.`,
    removePinsFix(facts.agent),
  );
}

function onRemovedCgroup(facts: AgentCgroupFacts, sets: HookSets, links: CgroupLink[]): Finding {
  const hooks = SOCKET_LB_HOOKS.filter((hook) => links.some((link) => link.hook === hook));
  return finding(
    facts,
    HOOKS_ON_REMOVED_CGROUP,
    'critical',
    `Cilium's socket-LB links for ${hooks.join(', ')} are attached to a cgroup that is not in the tree under ${facts.root}: ` +
      `a removed cgroup, kept alive by sockets opened in it. ${links.map(linkText).join(', ')}. ` +
      `The root has ${rootText(sets)}: ClusterIP traffic from every pod here gets no translation from those hooks, and restarting the agent does not move them.`,
    removePinsFix(facts.agent),
  );
}

function missing(facts: AgentCgroupFacts, sets: HookSets): Finding {
  const links =
    'error' in facts.links
      ? ` bpftool link show could not be read (${facts.links.error}), so links on a removed cgroup were not looked for.`
      : '';
  const foreign = sets.foreignOnRoot.length > 0 ? ` The root has only ${rootText(sets)}.` : '';
  return finding(
    facts,
    HOOKS_MISSING,
    'critical',
    `socket LB is on, but none of Cilium's socket-LB hooks is attached under the host's cgroup root ${facts.root} (inode 1): ` +
      `ClusterIP traffic from every pod here is not translated.${foreign}${links}`,
    `Look for "Failed to mount cgroupv2" or attach errors in the agent log (kubectl -n ${facts.agent.namespace} logs ${facts.agent.name} -c cilium-agent). ${removePinsFix(facts.agent)}`,
  );
}

function alsoNested(facts: AgentCgroupFacts, sets: HookSets): Finding {
  const types = SOCKET_LB_HOOKS.filter((hook) => sets.below.has(hook));
  const cgroups = [...new Set([...sets.below.values()].flat())];
  return finding(
    facts,
    HOOKS_ALSO_NESTED,
    'info',
    `Cilium's socket-LB hooks are on the host's cgroup root ${facts.root}; ${types.join(', ')} also sit below it, on ${listOf(cgroups)}, and each of those types is on the root too.`,
    `Nothing is needed for ClusterIP. To see both: bpftool cgroup tree /sys/fs/cgroup on ${facts.agent.node}.`,
  );
}

/**
 * Where an agent's socket-LB hooks sit, judged hook type by hook type. The root must be a cgroup2
 * mount (a tmpfs root has inode 1 too) and the host's (inode 1), whatever the walk from inside
 * shows. On it, a hook type Cilium has only below the root, or only on a removed cgroup, is
 * broken for every pod outside that cgroup, even when other types are on the root (a restart
 * after an upgrade that added a hook type leaves such a split). Nothing anywhere with socket LB
 * on is ClusterIP down for the whole node. Hooks below the root whose every type is on the root
 * too are only noted.
 */
export function judgePlacement(facts: AgentCgroupFacts, sets = hookSetsOf(facts)): Finding[] {
  if (facts.fsType !== CGROUP2_FS) return [notCgroup2(facts)];
  if (facts.inode !== ROOT_CGROUP_INODE) return [notHostRoot(facts)];
  const onRoot = new Set(sets.onRoot);
  // In bpf_attach_type order: bpftool builds query the types in different orders (7.5: post_bind first).
  const below = SOCKET_LB_HOOKS.filter((hook) => sets.below.has(hook) && !onRoot.has(hook));
  const removed = sets.offTree.filter((link) => link.hook && !onRoot.has(link.hook));
  const findings = [
    ...(below.length > 0 ? [onlyBelow(facts, sets, below)] : []),
    ...(removed.length > 0 ? [onRemovedCgroup(facts, sets, removed)] : []),
  ];
  if (findings.length > 0) return findings;
  if (sets.onRoot.length === 0) return [missing(facts, sets)];
  return sets.below.size > 0 ? [alsoNested(facts, sets)] : [];
}
