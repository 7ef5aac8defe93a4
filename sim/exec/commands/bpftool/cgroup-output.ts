import type { AttachTypeSpelling } from '../../../agent-state.ts';
import { joinWalkPath } from '../fs/paths.ts';
import { attachTypeName, attachTypeOrder, BPF_OBJ_NAME_MAX } from './attach-types.ts';
import type { BpfProgram, Cgroup } from './cgroup-hierarchy.ts';
import type { JsonValue } from './json-writer.ts';

/** What the bpftool build prints: old builds show the kernel's 15-character name, current ones the BTF full name. */
export interface BpftoolFlavor {
  spelling: AttachTypeSpelling;
}

export const TREE_HEADER = `CgroupPath\n${pad('ID', 8)} ${pad('AttachType', 15)} ${pad('AttachFlags', 15)} ${pad('Name', 15)}\n`;
export const SHOW_HEADER = `${pad('ID', 8)} ${pad('AttachType', 15)} ${pad('AttachFlags', 15)} ${pad('Name', 15)}\n`;

/** C's `%-Ns`: left-justified, never truncated. */
function pad(text: string, width: number): string {
  return text.padEnd(width, ' ');
}

/** Programs in the order bpftool queries attach types, each type's programs in attach order. */
function ordered(programs: BpfProgram[]): BpfProgram[] {
  return [...programs].sort((a, b) => attachTypeOrder(a.type) - attachTypeOrder(b.type));
}

function displayName(program: BpfProgram, flavor: BpftoolFlavor): string {
  return flavor.spelling === 'legacy' ? program.name.slice(0, BPF_OBJ_NAME_MAX) : program.name;
}

/** show_bpf_prog's text line: `%s%-8u ` (4-space indent below the walk root), `%-15s`, ` %-15s %-15s`. */
function programLine(program: BpfProgram, flavor: BpftoolFlavor, nested: boolean): string {
  const indent = nested ? '    ' : '';
  return `${indent}${pad(String(program.id), 8)} ${pad(attachTypeName(program.type, flavor.spelling), 15)} ${pad(program.flags, 15)} ${pad(displayName(program, flavor), 15)}\n`;
}

/** show_bpf_prog's JSON object; current bpftool adds the attach BTF ids (0 for socket hooks). */
function programJson(program: BpfProgram, flavor: BpftoolFlavor): JsonValue {
  const base = {
    id: program.id,
    attach_type: attachTypeName(program.type, flavor.spelling),
    attach_flags: program.flags,
    name: displayName(program, flavor),
  };
  return flavor.spelling === 'libbpf' ? { ...base, attach_btf_obj_id: 0, attach_btf_id: 0 } : base;
}

interface Visited {
  path: string;
  level: number;
  cgroup: Cgroup;
}

/** nftw's pre-order walk from the walk root (level 0), keeping only cgroups with programs attached. */
function walk(root: Cgroup, rootPath: string): Visited[] {
  const visited: Visited[] = [];
  const visit = (cgroup: Cgroup, path: string, level: number) => {
    if (cgroup.programs.length > 0) visited.push({ path, level, cgroup });
    for (const child of cgroup.children) visit(child, joinWalkPath(path, child.name), level + 1);
  };
  visit(root, rootPath, 0);
  return visited;
}

/** do_show_tree_fn text body (after the header): each cgroup path, then its programs. */
export function treeText(root: Cgroup, rootPath: string, flavor: BpftoolFlavor): string {
  return walk(root, rootPath)
    .map(
      ({ path, level, cgroup }) =>
        `${path}\n${ordered(cgroup.programs)
          .map((p) => programLine(p, flavor, level > 0))
          .join('')}`,
    )
    .join('');
}

/** do_show_tree_fn JSON: `[{"cgroup": path, "programs": [...]}, ...]`. */
export function treeJson(root: Cgroup, rootPath: string, flavor: BpftoolFlavor): JsonValue {
  return walk(root, rootPath).map(({ path, cgroup }) => ({
    cgroup: path,
    programs: ordered(cgroup.programs).map((p) => programJson(p, flavor)),
  }));
}

/** do_show: one cgroup's programs, unindented. */
export function showText(cgroup: Cgroup, flavor: BpftoolFlavor): string {
  return ordered(cgroup.programs)
    .map((p) => programLine(p, flavor, false))
    .join('');
}

export function showJson(cgroup: Cgroup, flavor: BpftoolFlavor): JsonValue {
  return ordered(cgroup.programs).map((p) => programJson(p, flavor));
}
