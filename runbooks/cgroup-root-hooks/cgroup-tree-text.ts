import type { CgroupEntry, CgroupProgram } from './cgroup-entry.ts';

const PATH_HEADER = 'CgroupPath';
/** With `effective`, bpftool drops the AttachFlags column (flags belong to an attach, not to what is in effect). */
const COLUMN_HEADER = /^ID\s+AttachType\s+(?:AttachFlags\s+)?Name\s*$/;
/** show_bpf_prog: `%-8u %-15s %-15s %-15s`, indented four spaces below the walk root. */
const PROGRAM_LINE = /^(?: {4})?(\d+) +(\S.*)$/;
const ATTACH_FLAGS = new Set(['multi', 'override', 'unknown']);
const IDENTIFIER = /^\w+$/;

function fail(lineNumber: number, line: string, why: string): never {
  throw new Error(`bpftool cgroup tree, line ${lineNumber}: ${why}: "${line.trim()}"`);
}

/**
 * The columns after the id. Columns are padded, not fixed: long libbpf names push the rest
 * right, flags and name may be empty, and a type without a name prints as two words (`type 29`).
 */
function programOf(id: number, columns: string[], lineNumber: number, line: string): CgroupProgram {
  const numericType = columns[0] === 'type' && /^\d+$/.test(columns[1] ?? '');
  const attachType = numericType ? `type ${columns[1]}` : (columns[0] as string);
  if (!numericType && !IDENTIFIER.test(attachType)) fail(lineNumber, line, 'not an attach type');
  let next = numericType ? 2 : 1;
  const attachFlags = ATTACH_FLAGS.has(columns[next] ?? '') ? (columns[next++] as string) : '';
  return { id, attachType, attachFlags, name: columns[next] ?? '' };
}

/**
 * The text form: header lines, then each cgroup path on its own line followed by its programs.
 * `show` output has no path line: its programs belong to `shownPath`.
 */
export function parseTreeText(output: string, shownPath?: string): CgroupEntry[] {
  const cgroups: CgroupEntry[] = shownPath === undefined ? [] : [{ path: shownPath, programs: [] }];
  for (const [index, raw] of output.split('\n').entries()) {
    const line = raw.trimEnd();
    const lineNumber = index + 1;
    if (line === '' || line === PATH_HEADER || COLUMN_HEADER.test(line)) continue;
    if (line.startsWith('/')) {
      cgroups.push({ path: line, programs: [] });
      continue;
    }
    const program = PROGRAM_LINE.exec(line);
    if (!program) fail(lineNumber, line, 'neither a cgroup path nor a program');
    const current = cgroups.at(-1);
    if (!current) fail(lineNumber, line, 'program before any cgroup path');
    current.programs.push(
      programOf(Number(program[1]), (program[2] as string).split(/\s+/), lineNumber, line),
    );
  }
  const empty = cgroups.find((cgroup) => cgroup.programs.length === 0);
  if (empty) throw new Error(`bpftool cgroup tree lists ${empty.path} without programs (truncated output?)`);
  return cgroups;
}

/**
 * `bpftool cgroup show PATH [effective]`: the header, then that one cgroup's programs, unindented.
 * With nothing attached bpftool prints nothing at all and exits 0 (`do_show` returns before the
 * header), so empty output is a cgroup without programs, not a cut-short answer.
 */
export function parseShowText(output: string, path: string): CgroupEntry[] {
  const body = output
    .split('\n')
    .map((line) => line.trimEnd())
    .filter((line) => line !== '' && line !== PATH_HEADER && !COLUMN_HEADER.test(line));
  return body.length === 0 ? [] : parseTreeText(output, path);
}
