import * as z from 'zod';
import type { CgroupEntry } from './cgroup-entry.ts';
import { parseJsonOutput, validateOutput } from './command-output.ts';

const COMMAND = 'bpftool -j cgroup tree';

/** show_bpf_prog's JSON object; current bpftool adds attach_btf_* fields, which are not needed here. */
const PROGRAM = z.object({
  id: z.number().int().nonnegative(),
  // A number when bpftool has no name for the type.
  attach_type: z.union([z.string().min(1), z.number().int()]),
  attach_flags: z.string().default(''),
  name: z.string().default(''),
});

const CGROUP = z.object({ cgroup: z.string().min(1), programs: z.array(PROGRAM) });
const TREE = z.array(CGROUP);
const PROGRAMS = z.array(PROGRAM);

/**
 * p_err in JSON mode: `{"error": ...}` alone, or as the last element of a walk it cut short. Looked
 * for in every item of every walk, so read directly: a schema that fails on all the others
 * would build a list of issues for each.
 */
function bpftoolError(item: unknown): string | undefined {
  const error = typeof item === 'object' && item !== null ? (item as { error?: unknown }).error : undefined;
  return typeof error === 'string' ? error : undefined;
}

type JsonProgram = z.infer<typeof PROGRAM>;

function programOf(program: JsonProgram): CgroupEntry['programs'][number] {
  return {
    id: program.id,
    attachType: typeof program.attach_type === 'number' ? `type ${program.attach_type}` : program.attach_type,
    attachFlags: program.attach_flags,
    name: program.name,
  };
}

/** A bpftool JSON stream, with bpftool's own error (alone, or ending a cut-short walk) thrown. */
export function bpftoolJsonOf(output: string, command: string): unknown {
  const value = parseJsonOutput(output, command);
  for (const item of Array.isArray(value) ? value : [value]) {
    const error = bpftoolError(item);
    if (error !== undefined) throw new Error(`bpftool: ${error}`);
  }
  return value;
}

/** The JSON form: `[{"cgroup": path, "programs": [{"id", "attach_type", "attach_flags", "name"}]}]`. */
export function parseTreeJson(output: string): CgroupEntry[] {
  const value = bpftoolJsonOf(output, COMMAND);
  return validateOutput(TREE, value, COMMAND).map((entry) => ({
    path: entry.cgroup,
    programs: entry.programs.map(programOf),
  }));
}

/**
 * `bpftool -j cgroup show PATH`: that one cgroup's programs, `[{"id", "attach_type", ...}]`. (With
 * nothing attached bpftool prints a lone newline, which parseCgroupShow reads as no programs.)
 */
export function parseShowJson(output: string, path: string): CgroupEntry[] {
  const command = `bpftool -j cgroup show ${path}`;
  const programs = validateOutput(PROGRAMS, bpftoolJsonOf(output, command), command);
  return programs.length > 0 ? [{ path, programs: programs.map(programOf) }] : [];
}
