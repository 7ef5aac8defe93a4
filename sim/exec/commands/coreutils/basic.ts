import type { Invocation } from '../../types.ts';
import { containerHostname } from '../fs/hostname.ts';

export function trueProgram(): number {
  return 0;
}

export function falseProgram(): number {
  return 1;
}

/** coreutils echo: arguments joined by spaces; `-n` drops the newline. */
export function echo({ argv, io }: Invocation): number {
  const args = argv.slice(1);
  const noNewline = args[0] === '-n';
  io.stdout(`${(noNewline ? args.slice(1) : args).join(' ')}${noNewline ? '' : '\n'}`);
  return 0;
}

export function hostname({ ctx, io }: Invocation): number {
  io.stdout(`${containerHostname(ctx)}\n`);
  return 0;
}

/** The EKS AL2023 node kernel the agents run on. */
const KERNEL_RELEASE = '6.1.141-155.222.amzn2023.x86_64';

/** `uname [-s|-r|-m|-a]`. */
export function uname({ ctx, argv, io }: Invocation): number {
  const flags = argv.slice(1).join('');
  const host = containerHostname(ctx);
  if (flags.includes('a')) {
    io.stdout(
      `Linux ${host} ${KERNEL_RELEASE} #1 SMP PREEMPT_DYNAMIC Tue Jun 10 20:03:21 UTC 2025 x86_64 x86_64 x86_64 GNU/Linux\n`,
    );
    return 0;
  }
  const parts: string[] = [];
  if (flags === '' || flags.includes('s')) parts.push('Linux');
  if (flags.includes('n')) parts.push(host);
  if (flags.includes('r')) parts.push(KERNEL_RELEASE);
  if (flags.includes('m')) parts.push('x86_64');
  io.stdout(`${parts.join(' ')}\n`);
  return 0;
}
