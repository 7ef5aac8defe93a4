import * as z from 'zod';
import { bpftoolJsonOf } from './cgroup-tree-json.ts';
import { validateOutput } from './command-output.ts';
import { type SocketLbHook, socketLbHookOf } from './socket-hooks.ts';

export const LINK_COMMAND = 'bpftool -j -f link show';

/** Where Cilium pins its cgroup links: `<bpffs>/cilium/socketlb/links/cgroup/<program name>` (pkg/socketlb). */
const CILIUM_CGROUP_PIN = /\/cilium\/socketlb\/links\/cgroup\/([^/]+)$/;

/** show_link_*_json: every link has an id, a type and a program; cgroup links add the cgroup and attach type. */
const LINK = z.object({
  id: z.number().int().nonnegative(),
  type: z.union([z.string(), z.number().int()]),
  prog_id: z.number().int().nonnegative(),
  cgroup_id: z.number().int().nonnegative().optional(),
  attach_type: z.union([z.string(), z.number().int()]).optional(),
  pinned: z.array(z.string()).optional(),
});
const LINKS = z.array(LINK);

/** One bpf_link attached to a cgroup, as `bpftool -j -f link show` lists it. */
export interface CgroupLink {
  id: number;
  progId: number;
  /** The cgroup's id (its inode); 0 once the cgroup is freed and the link is dead. */
  cgroupId: number;
  hook: SocketLbHook | undefined;
  /** The program's name, from Cilium's pin (`cil_sock4_connect`); undefined for a link Cilium did not pin. */
  ciliumProgram: string | undefined;
}

function attachTypeText(type: string | number | undefined): string {
  return typeof type === 'number' ? `type ${type}` : (type ?? '');
}

/**
 * The cgroup links in `bpftool -j -f link show`. With nothing to list bpftool prints `[]`; a
 * failure prints `{"error": ...}` (alone or ending the array) and throws here with its words.
 */
export function parseLinkShow(output: string): CgroupLink[] {
  const value = bpftoolJsonOf(output.trim() === '' ? '[]' : output, LINK_COMMAND);
  const links = validateOutput(LINKS, value, LINK_COMMAND);
  return links
    .filter((link) => link.type === 'cgroup' && link.cgroup_id !== undefined)
    .map((link) => {
      const pin = (link.pinned ?? []).map((path) => CILIUM_CGROUP_PIN.exec(path)).find(Boolean);
      return {
        id: link.id,
        progId: link.prog_id,
        cgroupId: link.cgroup_id ?? 0,
        hook: socketLbHookOf(attachTypeText(link.attach_type)),
        ciliumProgram: pin?.[1],
      };
    });
}
