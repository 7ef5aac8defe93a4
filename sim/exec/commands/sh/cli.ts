import { ExecStartError } from '../../start-error.ts';
import type { CommandIO, Invocation } from '../../types.ts';
import { printf } from './printf.ts';
import {
  type AndOr,
  type Command,
  parseScript,
  type Redirect,
  type Sequence,
  ShellSyntaxError,
  ShellUnsupported,
  type Word,
} from './syntax.ts';

/** Exit status for a script sh could not run (dash's, for syntax errors). */
const SHELL_ERROR = 2;
/** Exit status for a command that is not installed. */
const NOT_FOUND = 127;

/** `exit N` unwinds the script. */
class Exit {
  constructor(readonly status: number) {}
}

interface Shell {
  /** `$?`: the status of the last command run. */
  status: number;
  run: Invocation['run'];
}

function expand(word: Word, shell: Shell): string {
  return word.parts.map((part) => (part.kind === 'status' ? String(shell.status) : part.text)).join('');
}

/** The streams after `>&2` / `2>&1`, applied left to right. */
function redirected(io: CommandIO, redirects: Redirect[]): CommandIO {
  let out = io.stdout;
  let err = io.stderr;
  for (const { from, to } of redirects) {
    const target = to === 1 ? out : err;
    if (from === 1) out = target;
    else err = target;
  }
  return { ...io, stdout: out, stderr: err };
}

async function runSimple(
  shell: Shell,
  command: Extract<Command, { kind: 'simple' }>,
  io: CommandIO,
): Promise<number> {
  const argv = command.words.map((word) => expand(word, shell));
  const [name, ...args] = argv as [string, ...string[]];
  if (name === 'printf') {
    const { output, errors } = printf(args);
    io.stdout(output);
    for (const error of errors) io.stderr(`sh: ${command.line}: ${error}\n`);
    return errors.length > 0 ? 1 : 0;
  }
  if (name === 'exit') {
    if (args.length > 1 || (args[0] !== undefined && !/^\d+$/.test(args[0]))) {
      throw new ShellUnsupported(`exit ${args.join(' ')}`);
    }
    throw new Exit(args[0] === undefined ? shell.status : Number(args[0]) & 255);
  }
  try {
    return await shell.run(argv, io);
  } catch (error) {
    if (!(error instanceof ExecStartError)) throw error;
    io.stderr(`sh: ${command.line}: ${name}: not found\n`);
    return NOT_FOUND;
  }
}

async function runCommand(shell: Shell, command: Command, io: CommandIO): Promise<number> {
  const streams = redirected(io, command.redirects);
  if (command.kind === 'group') return runSequence(shell, command.body, streams);
  return runSimple(shell, command, streams);
}

async function runAndOr(shell: Shell, list: AndOr, io: CommandIO): Promise<number> {
  shell.status = await runCommand(shell, list.first, io);
  for (const { op, command } of list.rest) {
    if ((op === '&&') === (shell.status === 0)) shell.status = await runCommand(shell, command, io);
  }
  return shell.status;
}

async function runSequence(shell: Shell, sequence: Sequence, io: CommandIO): Promise<number> {
  for (const list of sequence) {
    if (io.signal.aborted) throw new Exit(128 + 15);
    await runAndOr(shell, list, io);
  }
  return shell.status;
}

/** The last script parsed, kept: an exec fan-out runs the same script in every agent. Running never changes it. */
let lastParsed: { script: string; sequence: Sequence } | undefined;

function parsed(script: string): Sequence {
  if (lastParsed?.script !== script) lastParsed = { script, sequence: parseScript(script) };
  return lastParsed.sequence;
}

/**
 * `sh -c SCRIPT [NAME [ARG]...]`, a small honest subset of dash: each simple command runs as the
 * container's simulated program (printf and exit are builtins). What it does not implement it
 * refuses, exiting 2 with the reason on stderr, before running anything when the parser sees it.
 */
export async function sh({ argv, io, run }: Invocation): Promise<number> {
  const [option, script] = argv.slice(1);
  if (option !== '-c' || script === undefined) {
    io.stderr(
      option === '-c'
        ? 'sh: 0: -c requires an argument\n'
        : 'sh: the simulated sh runs only `sh -c SCRIPT` (no options, no script from stdin or a file)\n',
    );
    return SHELL_ERROR;
  }
  const shell: Shell = { status: 0, run };
  try {
    return await runSequence(shell, parsed(script), io);
  } catch (error) {
    if (error instanceof Exit) return error.status;
    if (error instanceof ShellSyntaxError) {
      io.stderr(`sh: Syntax error: ${error.message}\n`);
      return SHELL_ERROR;
    }
    if (error instanceof ShellUnsupported) {
      io.stderr(`sh: the simulated sh does not support ${error.message}\n`);
      return SHELL_ERROR;
    }
    throw error;
  }
}
