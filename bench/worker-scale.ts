import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { R } from '../sim/cluster.ts';
import { startSim } from '../sim/index.ts';
import { type FanOutRuns, fanOutFigures, fanOutRuns } from './fan-out.ts';
import { type Figures, fromRuns, pairedRatios } from './figures.ts';
import { brokenCluster, healthyCluster } from './scale-clusters.ts';
import { NODES, ROUNDS } from './sizes.ts';
import { bundleWorkerChild, type ClientRun, clientsOf } from './worker-runs.ts';

const BIN = fileURLToPath(new URL('../bin/responder.js', import.meta.url));

/**
 * Collects what earlier measurements left in this process (npm run bench exposes gc), so the
 * simulator does not stop for it in the middle of the next one.
 */
const settle = () => (globalThis as { gc?: () => void }).gc?.();

const secondsOf = (runs: readonly ClientRun[]) => runs.map((run) => run.seconds);
const rssOf = (runs: readonly { maxRssMiB: number }[]) => runs.map((run) => run.maxRssMiB);

/**
 * The scan beside a plain paged GET of the same lists, interleaved round by round. The limits hold
 * on the healthy cluster, where the scan reads what the GET reads; on a broken one it also lists
 * the agents and the nodes.
 */
async function scanFigures(
  clients: ReturnType<typeof clientsOf>,
  bundle: string,
  options: { limits: boolean },
): Promise<{ figures: Figures; scan: ClientRun[] }> {
  const plain: ClientRun[] = [];
  const scan: ClientRun[] = [];
  settle();
  for (let round = 0; round < ROUNDS; round++) {
    plain.push(await clients.worker(bundle, 'plain'));
    scan.push(await clients.worker(bundle, 'scan'));
  }
  return {
    scan,
    figures: {
      'unmanaged scan (s)': fromRuns(secondsOf(scan), 1),
      'plain paged GET of the same lists (s)': fromRuns(secondsOf(plain), 1),
      'unmanaged scan / plain paged GET': fromRuns(
        pairedRatios(secondsOf(scan), secondsOf(plain)),
        2,
        options.limits ? { atMost: 1.1 } : {},
      ),
      'unmanaged scan peak RSS of the bundled worker (MiB)': fromRuns(
        rssOf(scan),
        0,
        options.limits ? { atMost: 256 } : {},
      ),
      'unmanaged scan verdicts': [...new Set(scan.map((run) => run.verdict))].join(', '),
    },
  };
}

/**
 * `responder run unmanaged-pods` as a user starts it (node bin/responder.js, the built CLI, local
 * state on), beside the bundled worker's scan on the same cluster, round by round.
 */
async function cliFigures(clients: ReturnType<typeof clientsOf>, bundle: string): Promise<Figures> {
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
  return {
    'responder run unmanaged-pods: first request after start (s)': fromRuns(first(cli), 2, { atMost: 0.5 }),
    'bundled worker: first request after start (s)': fromRuns(first(worker), 2),
    'responder run unmanaged-pods: start to exit (s)': fromRuns(
      cli.map((run) => run.seconds),
      1,
    ),
    'responder run unmanaged-pods: peak RSS (MiB)': fromRuns(rssOf(cli), 0),
    'responder run / bundled worker, peak RSS': fromRuns(pairedRatios(rssOf(cli), rssOf(worker)), 2, {
      atMost: 1.1,
    }),
    'responder run / bundled worker, wall time': fromRuns(
      pairedRatios(
        cli.map((run) => run.seconds),
        secondsOf(worker),
      ),
      2,
    ),
  };
}

/** client-node's typed CoreV1Api beside the facade, listing the same pods the same way. */
async function clientNodeFigures(clients: ReturnType<typeof clientsOf>, bundle: string): Promise<Figures> {
  const facade: ClientRun[] = [];
  const clientNode: ClientRun[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    facade.push(await clients.worker(bundle, 'facade-pods'));
    clientNode.push(await clients.worker(bundle, 'client-node-pods'));
  }
  return {
    'pods listed via client-node CoreV1Api / via the facade (time)': fromRuns(
      pairedRatios(secondsOf(clientNode), secondsOf(facade)),
      2,
    ),
    'pods listed via client-node CoreV1Api / via the facade (peak RSS)': fromRuns(
      pairedRatios(rssOf(clientNode), rssOf(facade)),
      2,
    ),
  };
}

/**
 * The worker at BENCH_NODES nodes (5,000 unless set), every client in its own process, against
 * the simulator in this one.
 * The healthy cluster: the scan beside a plain paged GET, the CLI as a whole process beside the
 * bundled worker, client-node beside the facade, and the cgroup check's fan-out, also inside the
 * CPU share of a 1,024 MB and a 1,769 MB Lambda.
 */
export async function healthyWorkerBench(): Promise<Figures> {
  const bundle = await bundleWorkerChild();
  const cluster = healthyCluster(NODES);
  const sim = await startSim({ cluster, controllers: false });
  try {
    const clients = clientsOf(sim);
    const scan = await scanFigures(clients, bundle, { limits: true });
    const figures: Figures = {
      'pods / CEPs': `${cluster.store.count(R.pods)} / ${cluster.store.count(R.ciliumendpoints)}`,
      ...scan.figures,
      ...(await cliFigures(clients, bundle)),
      ...(await clientNodeFigures(clients, bundle)),
    };
    settle();
    const fanOut: FanOutRuns = await fanOutRuns(sim, clients, bundle, [undefined, 1024, 1769]);
    return { ...figures, ...fanOutFigures(fanOut, { limits: true }) };
  } finally {
    await sim.close();
  }
}

/**
 * The same worker on a cluster with the incidents on 1% of its nodes each, so the scan lists the
 * agents and the nodes, and the cgroup check walks the tree where the hooks are gone.
 */
export async function brokenWorkerBench(): Promise<Figures> {
  const bundle = await bundleWorkerChild();
  const broken = brokenCluster(NODES);
  const sim = await startSim({ cluster: broken.cluster, controllers: false });
  try {
    const clients = clientsOf(sim);
    const { figures } = await scanFigures(clients, bundle, { limits: false });
    settle();
    const fanOut = await fanOutRuns(sim, clients, bundle, [undefined]);
    return {
      'pods / CEPs': `${broken.cluster.store.count(R.pods)} / ${broken.cluster.store.count(R.ciliumendpoints)}`,
      'incidents (unmanaged pods / agents with hooks on their container / agents whose root lost them)': `${broken.unmanagedPods} / ${broken.hooksOnContainer} / ${broken.hooksGone}`,
      ...figures,
      ...fanOutFigures(fanOut, { limits: false }),
    };
  } finally {
    await sim.close();
  }
}
