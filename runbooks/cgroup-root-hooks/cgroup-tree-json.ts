import { z } from 'zod';
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

/** p_err in JSON mode: `{"error": ...}` alone, or as the last element of a walk it cut short. */
const BPFTOOL_ERROR = z.object({ error: z.string() });

/** The JSON form: `[{"cgroup": path, "programs": [{"id", "attach_type", "attach_flags", "name"}]}]`. */
export function parseTreeJson(output: string): CgroupEntry[] {
  const value = parseJsonOutput(output, COMMAND);
  for (const item of Array.isArray(value) ? value : [value]) {
    const error = BPFTOOL_ERROR.safeParse(item);
    if (error.success) throw new Error(`bpftool: ${error.data.error}`);
  }
  return validateOutput(z.array(CGROUP), value, COMMAND).map((entry) => ({
    path: entry.cgroup,
    programs: entry.programs.map((program) => ({
      id: program.id,
      attachType:
        typeof program.attach_type === 'number' ? `type ${program.attach_type}` : program.attach_type,
      attachFlags: program.attach_flags,
      name: program.name,
    })),
  }));
}
