import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { type Figures, fromRuns, pairedRatios } from './figures.ts';
import { runMeasured } from './processes.ts';
import { ROUNDS } from './sizes.ts';

const BIN = fileURLToPath(new URL('../bin/responder.js', import.meta.url));

/**
 * How long `responder --help` and `responder list` take as whole processes, next to a bare
 * `node -e 0`, alternated round by round (machines here are noisy). The CLI is built first, as
 * `npm ci` builds it.
 */
export async function cliStartupBench(): Promise<Figures> {
  execFileSync('npm', ['run', '--silent', 'build'], { stdio: 'ignore' });
  const bare: number[] = [];
  const help: number[] = [];
  const list: number[] = [];
  const rss: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    bare.push((await runMeasured(process.execPath, ['-e', '0'])).seconds);
    help.push((await runMeasured(process.execPath, [BIN, '--help'])).seconds);
    const listed = await runMeasured(process.execPath, [BIN, 'list'], { peakRss: true });
    list.push(listed.seconds);
    rss.push(listed.maxRssMiB ?? Number.NaN);
  }
  return {
    'node -e 0 (s)': fromRuns(bare, 3),
    'responder --help (s)': fromRuns(help, 3, { atMost: 0.5 }),
    'responder --help / node -e 0': fromRuns(pairedRatios(help, bare), 2),
    'responder list (s)': fromRuns(list, 3),
    'responder list: peak RSS (MiB)': fromRuns(rss, 0),
  };
}
