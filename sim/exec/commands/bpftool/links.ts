import type { AgentState } from '../../../agent-state.ts';
import { cgroupInode } from '../fs/agent-cgroup-mounts.ts';
import { type AttachType, attachTypeName } from './attach-types.ts';
import { hookSets, socketLbHooks, systemdPrograms } from './cgroup-hierarchy.ts';
import type { BpftoolFlavor } from './cgroup-output.ts';
import type { JsonValue } from './json-writer.ts';

/** One bpf_link to a cgroup, as the kernel lists it (by id, in creation order). */
export interface CgroupLink {
  id: number;
  progId: number;
  /** The cgroup's id (its inode), live or removed. */
  cgroupId: number;
  type: AttachType;
  pinned?: string;
}

/**
 * The node's cgroup links: systemd's, made at boot, then each set of Cilium's hooks in the order
 * the agent attached them. A set on a removed cgroup keeps its links (sockets opened in the cgroup
 * keep it alive) though no walk reaches the cgroup. runc's device filters are no links.
 */
export function nodeLinks(agent: AgentState): CgroupLink[] {
  const attached = [
    ...systemdPrograms().map(({ path, program }) => ({ path, program })),
    ...hookSets(agent).flatMap((set) =>
      socketLbHooks(agent, set).map((program) => ({ path: set.cgroup, program })),
    ),
  ];
  return attached.map(({ path, program }, i) => ({
    id: 10 + i,
    progId: program.id,
    cgroupId: cgroupInode(agent, path),
    type: program.type,
    ...(program.link?.pinned ? { pinned: program.link.pinned } : {}),
  }));
}

/** show_link_close_plain for a cgroup link; `-f` adds a `pinned` line per pin. */
export function linkText(link: CgroupLink, flavor: BpftoolFlavor, showPinned: boolean): string {
  const pinned = showPinned && link.pinned ? `\tpinned ${link.pinned}\n` : '';
  return (
    `${link.id}: cgroup  prog ${link.progId}  \n` +
    `\tcgroup_id ${link.cgroupId}  attach_type ${attachTypeName(link.type, flavor.spelling)}  \n${pinned}`
  );
}

/** show_link_close_json for a cgroup link; `-f` (with any pin on the node) adds `pinned`, empty for a link nobody pinned. */
export function linkJson(link: CgroupLink, flavor: BpftoolFlavor, showPinned: boolean): JsonValue {
  return {
    id: link.id,
    type: 'cgroup',
    prog_id: link.progId,
    cgroup_id: link.cgroupId,
    attach_type: attachTypeName(link.type, flavor.spelling),
    ...(showPinned ? { pinned: link.pinned ? [link.pinned] : [] } : {}),
  };
}
