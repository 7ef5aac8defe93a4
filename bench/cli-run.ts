import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Figures, fromRuns, pairedRatios } from './figures.ts';
import { ROUNDS } from './sizes.ts';
import { type ClientRun, type clientsOf, settle } from './worker-runs.ts';

const BIN = fileURLToPath(new URL('../bin/responder.js', import.meta.url));

/**
 * `responder run unmanaged-pods` as a user starts it (node bin/responder.js, the built CLI, local
 * state on), beside the bundled worker's scan on the same cluster, round by round.
 */
export async function cliRunFigures(clients: ReturnType<typeof clientsOf>, bundle: string): Promise<Figures> {
  const stateDir = mkdtempSync(join(tmpdir(), 'bench-cli-state-'));
  const env = { ...process.env, RESPONDER_STATE_DIR: stateDir, NO_COLOR: '1' };
  const cli: Awaited<ReturnType<typeof clients.process>>[] = [];
  const worker: ClientRun[] = [];
  settle();
  for (let round = 0; round < ROUNDS; round++) {
    worker.push(await clients.worker(bundle, 'scan'));
    cli.push(
      await clients.process(
        process.execPath,
        [BIN, 'run', 'unmanaged-pods', '--kubeconfig', clients.kubeconfig, '-o', 'json'],
        { env, exitCodes: [0, 1] },
      ),
    );
  }
  const first = (runs: readonly { firstRequestSeconds: number }[]) => runs.map((r) => r.firstRequestSeconds);
  const seconds = (runs: readonly { seconds: number }[]) => runs.map((run) => run.seconds);
  const rss = (runs: readonly { maxRssMiB: number }[]) => runs.map((run) => run.maxRssMiB);
  return {
    'responder run unmanaged-pods: first request after start (s)': fromRuns(first(cli), 2, { atMost: 0.5 }),
    'bundled worker: first request after start (s)': fromRuns(first(worker), 2),
    'responder run unmanaged-pods: start to exit (s)': fromRuns(seconds(cli), 1),
    'responder run unmanaged-pods: peak RSS (MiB)': fromRuns(rss(cli), 0),
    'responder run / bundled worker, peak RSS': fromRuns(pairedRatios(rss(cli), rss(worker)), 2, {
      atMost: 1.1,
    }),
    'responder run / bundled worker, wall time': fromRuns(pairedRatios(seconds(cli), seconds(worker)), 2),
  };
}
