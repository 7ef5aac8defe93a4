import type { Invocation } from '../../types.ts';
import { lookupPath } from '../fs/container-fs.ts';

/** coreutils readlink without options: a link's target; anything else fails silently with status 1. */
export function readlink({ ctx, argv, io }: Invocation): number {
  const operands = argv.slice(1);
  if (operands.length === 0) {
    io.stderr("readlink: missing operand\nTry 'readlink --help' for more information.\n");
    return 1;
  }
  let status = 0;
  for (const operand of operands) {
    const entry = lookupPath(ctx, operand);
    if (entry?.kind === 'symlink') io.stdout(`${entry.target}\n`);
    else status = 1;
  }
  return status;
}
