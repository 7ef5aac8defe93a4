import type { AttachTypeSpelling } from '../../../agent-state.ts';
import { joinWalkPath } from '../fs/paths.ts';
import { attachTypeName, attachTypeOrder, BPF_OBJ_NAME_MAX } from './attach-types.ts';
import type { BpfProgram, Cgroup } from './cgroup-hierarchy.ts';
import type { JsonValue } from './json-writer.ts';

/**
 * What the bpftool build prints: old builds (5.10) show the kernel's 15-character name and the old
 * attach-type names; current ones (7.1, held to test/fixtures/captured/) the BTF full name, libbpf's
 * attach-type names and an attach_btf_name column.
 */
export interface BpftoolFlavor {
  spelling: AttachTypeSpelling;
}

/** One query: `effective` asks for the programs that run (inherited ones too) and drops the flags column. */
export interface Query {
  flavor: BpftoolFlavor;
  effective: boolean;
}

/** C's `%-Ns`: left-justified, never truncated. */
function pad(text: string, width: number): string {
  return text.padEnd(width, ' ');
}

export function showHeader(effective: boolean): string {
  const flags = effective ? '' : ` ${pad('AttachFlags', 15)}`;
  return `${pad('ID', 8)} ${pad('AttachType', 15)}${flags} ${pad('Name', 15)}\n`;
}

export function treeHeader(effective: boolean): string {
  return `CgroupPath\n${showHeader(effective)}`;
}

/**
 * Programs in the order bpftool queries attach types; within a type, the kernel's order: the
 * cgroup's own in attach order, then each ancestor's, nearest first (a stable sort keeps that).
 */
function ordered(programs: BpfProgram[]): BpfProgram[] {
  return [...programs].sort((a, b) => attachTypeOrder(a.type) - attachTypeOrder(b.type));
}

function displayName(program: BpfProgram, flavor: BpftoolFlavor): string {
  return flavor.spelling === 'legacy' ? program.name.slice(0, BPF_OBJ_NAME_MAX) : program.name;
}

/**
 * show_bpf_prog's text line: `%s%-8u ` (4-space indent below the walk root), `%-15s` type, then
 * ` %-15s %-15s` flags and name (` %-15s` name alone when effective), and on current bpftool the
 * ` %-15s` attach_btf_name, empty for socket hooks.
 */
function programLine(program: BpfProgram, query: Query, nested: boolean): string {
  const { flavor } = query;
  const indent = nested ? '    ' : '';
  const flags = query.effective ? '' : ` ${pad(program.flags, 15)}`;
  const btfName = flavor.spelling === 'libbpf' ? ` ${pad('', 15)}` : '';
  return `${indent}${pad(String(program.id), 8)} ${pad(attachTypeName(program.type, flavor.spelling), 15)}${flags} ${pad(displayName(program, flavor), 15)}${btfName}\n`;
}

/** show_bpf_prog's JSON object; current bpftool adds the attach BTF name and ids (empty and 0 for socket hooks). */
function programJson(program: BpfProgram, query: Query): JsonValue {
  const { flavor } = query;
  const base = {
    id: program.id,
    attach_type: attachTypeName(program.type, flavor.spelling),
    ...(query.effective ? {} : { attach_flags: program.flags }),
    name: displayName(program, flavor),
  };
  return flavor.spelling === 'libbpf'
    ? { ...base, attach_btf_name: '', attach_btf_obj_id: 0, attach_btf_id: 0 }
    : base;
}

interface Visited {
  path: string;
  level: number;
  programs: BpfProgram[];
}

/**
 * nftw's pre-order walk from the walk root (level 0), keeping the cgroups with programs to show:
 * their own, or with `effective` their own and inherited ones (`inherited` is what the walk root
 * inherits from above it).
 */
function walk(root: Cgroup, rootPath: string, query: Query, inherited: BpfProgram[]): Visited[] {
  const visited: Visited[] = [];
  const visit = (cgroup: Cgroup, path: string, level: number, above: BpfProgram[]) => {
    const programs = query.effective ? [...cgroup.programs, ...above] : cgroup.programs;
    if (programs.length > 0) visited.push({ path, level, programs: ordered(programs) });
    const below = [...cgroup.programs, ...above];
    for (const child of cgroup.children) visit(child, joinWalkPath(path, child.name), level + 1, below);
  };
  visit(root, rootPath, 0, inherited);
  return visited;
}

/** do_show_tree_fn text body (after the header): each cgroup path, then its programs. */
export function treeText(root: Cgroup, rootPath: string, query: Query, inherited: BpfProgram[]): string {
  return walk(root, rootPath, query, inherited)
    .map(
      ({ path, level, programs }) =>
        `${path}\n${programs.map((p) => programLine(p, query, level > 0)).join('')}`,
    )
    .join('');
}

/** do_show_tree_fn JSON: `[{"cgroup": path, "programs": [...]}, ...]`. */
export function treeJson(root: Cgroup, rootPath: string, query: Query, inherited: BpfProgram[]): JsonValue {
  return walk(root, rootPath, query, inherited).map(({ path, programs }) => ({
    cgroup: path,
    programs: programs.map((p) => programJson(p, query)),
  }));
}

/** The programs `show` lists for a cgroup: its own, or with `effective` its own and inherited ones. */
export function shownPrograms(cgroup: Cgroup, query: Query, inherited: BpfProgram[]): BpfProgram[] {
  return ordered(query.effective ? [...cgroup.programs, ...inherited] : cgroup.programs);
}

/** do_show: one cgroup's programs, unindented. */
export function showText(programs: BpfProgram[], query: Query): string {
  return programs.map((p) => programLine(p, query, false)).join('');
}

export function showJson(programs: BpfProgram[], query: Query): JsonValue {
  return programs.map((p) => programJson(p, query));
}
