import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../../bin/responder.js', import.meta.url));

/** Local state for this test file's commands: never the user's, never another file's. */
export const STATE_DIR = mkdtempSync(join(tmpdir(), 'responder-state-'));

export interface RunningCli {
  child: ChildProcessWithoutNullStreams;
  output(): string;
  /** stdout alone: what a script piping the command reads. */
  stdout(): string;
  /** Resolves with the output so far once a line matches, or rejects if the process exits first. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<string>;
  stop(): Promise<number | null>;
}

/** Starts `responder <args>` as a user would, capturing stdout and stderr. */
export function startCli(args: string[], env: NodeJS.ProcessEnv = {}): RunningCli {
  const child = spawn(process.execPath, [BIN, ...args], {
    env: { ...process.env, NO_COLOR: '1', RESPONDER_STATE_DIR: STATE_DIR, ...env },
  });
  let output = '';
  let stdout = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
    stdout += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    child,
    output: () => output,
    stdout: () => stdout,
    waitFor: (pattern, timeoutMs = 20_000) =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`timed out waiting for ${pattern}; output:\n${output}`)),
          timeoutMs,
        );
        const check = () => {
          if (pattern.test(output)) {
            clearTimeout(timer);
            resolve(output);
          }
        };
        child.stdout.on('data', check);
        child.stderr.on('data', check);
        void exited.then((code) => {
          clearTimeout(timer);
          if (!pattern.test(output))
            reject(new Error(`exited with ${code} before ${pattern}; output:\n${output}`));
        });
        check();
      }),
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}

/** Runs `responder <args>` to completion. */
export async function runCli(
  args: string[],
  env: NodeJS.ProcessEnv = {},
): Promise<{ code: number | null; output: string; stdout: string }> {
  const cli = startCli(args, env);
  const code = await new Promise<number | null>((resolve) => cli.child.once('exit', resolve));
  return { code, output: cli.output(), stdout: cli.stdout() };
}
