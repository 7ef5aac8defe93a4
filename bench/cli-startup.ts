import { execFileSync, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../bin/responder.js', import.meta.url));
const ROUNDS = 15;

function seconds(args: string[]): number {
  const started = performance.now();
  const run = spawnSync(process.execPath, args, { stdio: 'ignore' });
  if (run.status !== 0) throw new Error(`${args.join(' ')} exited ${run.status}`);
  return (performance.now() - started) / 1000;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

/**
 * How long `responder --help` takes next to a bare `node -e 0`, alternated in one run (machines
 * here are noisy): the built CLI loads only its command definitions until a command runs.
 */
export function cliStartupBench(): Record<string, number | string> {
  execFileSync(process.execPath, ['scripts/build-cli.mjs']);
  const bare: number[] = [];
  const help: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    bare.push(seconds(['-e', '0']));
    help.push(seconds([BIN, '--help']));
  }
  return {
    'node -e 0 (median s)': Number(median(bare).toFixed(3)),
    'responder --help (median s)': Number(median(help).toFixed(3)),
    'responder --help / node -e 0 (target: answers in < 0.5 s)': Number(
      (median(help) / median(bare)).toFixed(2),
    ),
  };
}
