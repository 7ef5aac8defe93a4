import type { CgroupEntry } from './cgroup-entry.ts';
import { parseShowJson, parseTreeJson } from './cgroup-tree-json.ts';
import { parseShowText, parseTreeText } from './cgroup-tree-text.ts';

export type { CgroupEntry, CgroupProgram } from './cgroup-entry.ts';

import { isCiliumSocketProgram, type SocketLbHook, socketLbHookOf } from './socket-hooks.ts';

/** Where one program on a socket-LB attach type sits. */
export interface SocketHookPlacement {
  hook: SocketLbHook;
  cgroup: string;
  programId: number;
  name: string;
}

export interface CgroupTree {
  /** Cgroups that have programs attached, in walk order (bpftool lists no others). */
  cgroups: CgroupEntry[];
  /** Cilium's socket-LB programs among them, hooks in one spelling. */
  socketHooks: SocketHookPlacement[];
  /** Other tools' programs on socket-LB attach types: never taken for Cilium's. */
  foreignHooks: SocketHookPlacement[];
}

/** Whether the walk shows any program name: where it does, Cilium's hooks carry theirs. */
function namesPrinted(cgroups: readonly CgroupEntry[]): boolean {
  return cgroups.some((cgroup) => cgroup.programs.some((program) => program.name !== ''));
}

function treeOf(cgroups: CgroupEntry[]): CgroupTree {
  const named = namesPrinted(cgroups);
  const socketHooks: SocketHookPlacement[] = [];
  const foreignHooks: SocketHookPlacement[] = [];
  for (const cgroup of cgroups) {
    for (const program of cgroup.programs) {
      const hook = socketLbHookOf(program.attachType);
      if (!hook) continue;
      const placement = { hook, cgroup: cgroup.path, programId: program.id, name: program.name };
      (isCiliumSocketProgram(program.name, named) ? socketHooks : foreignHooks).push(placement);
    }
  }
  return { cgroups, socketHooks, foreignHooks };
}

/**
 * Parses `bpftool cgroup tree [ROOT]` in any of its forms: text (header, then each cgroup path
 * followed by its programs, sub-cgroups' programs indented four spaces) or JSON (`-j`, `-p`),
 * with old or libbpf attach-type names. Empty, truncated or malformed output throws: a walk the
 * runbook cannot read must never pass for a healthy one. A header alone (or `[]`) is a walk that
 * found no programs.
 */
export function parseCgroupTree(output: string): CgroupTree {
  const trimmed = output.trim();
  if (trimmed === '') throw new Error('bpftool cgroup tree printed nothing');
  return treeOf(
    trimmed.startsWith('[') || trimmed.startsWith('{') ? parseTreeJson(trimmed) : parseTreeText(output),
  );
}

/**
 * Parses `bpftool cgroup show PATH [effective]` (text or `-j`): the programs attached to that one
 * cgroup, as a CgroupTree of at most that cgroup. Empty output is a cgroup with no programs: that
 * is what bpftool prints for one.
 */
export function parseCgroupShow(output: string, path: string): CgroupTree {
  const trimmed = output.trim();
  return treeOf(
    trimmed.startsWith('[') || trimmed.startsWith('{')
      ? parseShowJson(trimmed, path)
      : parseShowText(output, path),
  );
}
