import { ExecStartError } from '../../start-error.ts';
import type { Invocation } from '../../types.ts';

/** Exit status when the command timed out (coreutils). */
export const TIMED_OUT = 124;

const UNITS: Record<string, number> = { '': 1, s: 1, m: 60, h: 3600, d: 86400 };

function parseDuration(text: string): number | undefined {
  const match = /^(\d+(?:\.\d*)?|\.\d+)([smhd]?)$/.exec(text);
  if (!match) return undefined;
  return Number(match[1]) * (UNITS[match[2] as string] as number) * 1000;
}

/**
 * coreutils `timeout [-s SIG] [-k DUR] [--preserve-status] DURATION COMMAND [ARG]...`: runs the
 * command and kills it when the duration passes, exiting 124 (or 128+15 with --preserve-status).
 */
export async function timeout({ argv, io, run }: Invocation): Promise<number> {
  const args = argv.slice(1);
  let preserveStatus = false;
  while (args[0]?.startsWith('-') && args[0] !== '-') {
    const option = args.shift() as string;
    if (option === '--preserve-status') preserveStatus = true;
    else if (option === '-s' || option === '-k') args.shift();
  }
  const [durationText, ...command] = args;
  if (durationText === undefined || command.length === 0) {
    io.stderr("timeout: missing operand\nTry 'timeout --help' for more information.\n");
    return 125;
  }
  const duration = parseDuration(durationText);
  if (duration === undefined) {
    io.stderr(
      `timeout: invalid time interval '${durationText}'\nTry 'timeout --help' for more information.\n`,
    );
    return 125;
  }
  const child = new AbortController();
  const forward = () => child.abort();
  io.signal.addEventListener('abort', forward, { once: true });
  let timedOut = false;
  const timer =
    duration > 0
      ? setTimeout(() => {
          timedOut = true;
          child.abort();
        }, duration)
      : undefined;
  try {
    const code = await run(command, { ...io, signal: child.signal });
    return timedOut ? (preserveStatus ? 128 + 15 : TIMED_OUT) : code;
  } catch (error) {
    if (!(error instanceof ExecStartError)) throw error;
    io.stderr(`timeout: failed to run command '${error.executable}': No such file or directory\n`);
    return 127;
  } finally {
    clearTimeout(timer);
    io.signal.removeEventListener('abort', forward);
  }
}
