/** What `bpftool cgroup tree` lists, in either of its output forms. */

/** One program attached to a cgroup, as bpftool listed it. */
export interface CgroupProgram {
  id: number;
  /** As printed: `connect4`, `cgroup_inet4_connect`, or `type 29` for a type bpftool has no name for. */
  attachType: string;
  /** `multi`, `override`, or empty. */
  attachFlags: string;
  /** Possibly cut to 15 characters by older bpftool; empty for unnamed programs. */
  name: string;
}

export interface CgroupEntry {
  /** The walk path: the root as passed to bpftool, then its sub-cgroups below it. */
  path: string;
  programs: CgroupProgram[];
}
