import type { Invocation } from '../../types.ts';
import { lookupPath } from '../fs/container-fs.ts';

/** coreutils cat: the named files in order (stdin when none or `-`); a bad operand is reported and skipped. */
export async function cat({ ctx, argv, io }: Invocation): Promise<number> {
  const operands = argv.slice(1);
  let status = 0;
  for (const operand of operands.length > 0 ? operands : ['-']) {
    if (operand === '-') {
      if (io.stdin) for await (const chunk of io.stdin) io.stdout(chunk);
      continue;
    }
    const entry = lookupPath(ctx, operand);
    if (entry?.kind === 'file') io.stdout(entry.content());
    else {
      const reason = entry ? 'Is a directory' : 'No such file or directory';
      io.stderr(`cat: ${operand}: ${reason}\n`);
      status = 1;
    }
  }
  return status;
}
