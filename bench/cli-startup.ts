import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { startSim } from '../sim/index.ts';
import { cliRunFigures } from './cli-run.ts';
import { type Figures, fromRuns, pairedRatios } from './figures.ts';
import { runMeasured } from './processes.ts';
import { healthyCluster } from './scale-clusters.ts';
import { ROUNDS } from './sizes.ts';
import { bundleWorkerChild, clientsOf } from './worker-runs.ts';

const BIN = fileURLToPath(new URL('../bin/responder.js', import.meta.url));

/** A cluster small enough that `responder run`'s figures are its start, not its reads. */
const SMALL_CLUSTER_NODES = 20;

/**
 * How long `responder --help` and `responder list` take as whole processes, next to a bare
 * `node -e 0`, alternated round by round (machines here are noisy); then `responder run` on a
 * small simulated cluster beside the bundled worker. The CLI is built first, as `npm ci` builds it.
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
    ...(await smallClusterRun()),
  };
}

/** `responder run` on a 20-node simulated cluster, labelled as such. */
async function smallClusterRun(): Promise<Figures> {
  const bundle = await bundleWorkerChild();
  const sim = await startSim({ cluster: healthyCluster(SMALL_CLUSTER_NODES), controllers: false });
  try {
    const figures = await cliRunFigures(clientsOf(sim), bundle);
    return Object.fromEntries(
      Object.entries(figures).map(([label, figure]) => [`${label}, ${SMALL_CLUSTER_NODES} nodes`, figure]),
    );
  } finally {
    await sim.close();
  }
}
