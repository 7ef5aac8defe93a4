/** The cgroup v2 root cgroup's inode: only the host's real root has it. */
export const ROOT_CGROUP_INODE = 1;

/** PROC_CGROUP_INIT_INO: the initial (host) cgroup namespace's inode. */
export const HOST_CGROUP_NAMESPACE_INODE = 4026531835;

/** `stat -c %i <path>`: one inode number. */
export function parseInode(output: string): number {
  const text = output.trim();
  if (!/^\d+$/.test(text)) throw new Error(`stat -c %i printed "${text}", not an inode number`);
  return Number(text);
}

export interface CgroupNamespace {
  inode: number;
  /** The agent shares the host's cgroup namespace. */
  host: boolean;
}

/** `readlink /proc/self/ns/cgroup`: `cgroup:[4026531835]`. */
export function parseCgroupNamespace(output: string): CgroupNamespace {
  const text = output.trim();
  const match = /^cgroup:\[(\d+)\]$/.exec(text);
  if (!match) throw new Error(`readlink /proc/self/ns/cgroup printed "${text}", not cgroup:[<inode>]`);
  const inode = Number(match[1]);
  return { inode, host: inode === HOST_CGROUP_NAMESPACE_INODE };
}

/** `stat -f -c %T` of a cgroup v2 mount: the inode only means something on one. */
export const CGROUP2_FS = 'cgroup2fs';

/** `stat -f -c %T <path>`: the filesystem type's name (`cgroup2fs`, `tmpfs`, `UNKNOWN (0x...)`). */
export function parseFsType(output: string): string {
  const text = output.trim();
  if (text === '' || text.includes('\n'))
    throw new Error(`stat -f -c %T printed "${text}", not one filesystem type`);
  return text;
}
