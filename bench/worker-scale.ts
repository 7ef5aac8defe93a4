import { R } from '../sim/cluster.ts';
import { startSim } from '../sim/index.ts';
import { buildCluster } from '../sim/scenarios/index.ts';
import { cliRunFigures } from './cli-run.ts';
import { type FanOutRuns, fanOutFigures, fanOutRuns } from './fan-out.ts';
import { type Figures, fromRuns, pairedRatios } from './figures.ts';
import { brokenCluster, healthyCluster } from './scale-clusters.ts';
import { fanOutRoundsAt, ROUNDS, roundsAt, WORKER_RSS_LIMIT_MIB } from './sizes.ts';
import { bundleWorkerChild, type ClientRun, clientsOf, settle } from './worker-runs.ts';

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
  options: { limits: boolean; rounds: number },
): Promise<{ figures: Figures; scan: ClientRun[] }> {
  const plain: ClientRun[] = [];
  const scan: ClientRun[] = [];
  settle();
  for (let round = 0; round < options.rounds; round++) {
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
        options.limits ? { atMost: WORKER_RSS_LIMIT_MIB } : {},
      ),
      'unmanaged scan verdicts': [...new Set(scan.map((run) => run.verdict))].join(', '),
    },
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
 * The worker on a cluster of `nodes` nodes, every client in its own process, against the
 * simulator in this one.
 * The healthy cluster: the scan beside a plain paged GET and the cgroup check's fan-out, at every
 * size. With `perProcess` (the first size a run measures), also what does not depend on the
 * cluster's size and would only lengthen a run at a larger one: the CLI as a whole process beside
 * the bundled worker, client-node beside the facade, and the fan-out inside the CPU share of a
 * 1,024 MB and a 1,769 MB Lambda and through the replaying exec server.
 */
export async function healthyWorkerBench(
  nodes: number,
  options: { perProcess: boolean; firstSize: number },
): Promise<Figures> {
  const bundle = await bundleWorkerChild();
  const cluster = healthyCluster(nodes);
  const sim = await startSim({ cluster, controllers: false });
  try {
    const clients = clientsOf(sim);
    const rounds = roundsAt(nodes);
    const scan = await scanFigures(clients, bundle, { limits: true, rounds });
    const figures: Figures = {
      'pods / CEPs': `${cluster.store.count(R.pods)} / ${cluster.store.count(R.ciliumendpoints)}`,
      ...scan.figures,
      ...(options.perProcess
        ? { ...(await cliRunFigures(clients, bundle)), ...(await clientNodeFigures(clients, bundle)) }
        : {
            'the CLI, client-node, the fan-out inside Lambda CPU quotas and through the replaying server': `measured at ${options.firstSize.toLocaleString('en-US')} nodes: they do not depend on the cluster's size`,
          }),
    };
    settle();
    const fanOuts = fanOutRoundsAt(nodes);
    const fanOut: FanOutRuns = options.perProcess
      ? await fanOutRuns(sim, clients, bundle, {
          rounds: fanOuts,
          sizes: [undefined, 1024, 1769],
          replayedAt: [1769],
        })
      : await fanOutRuns(sim, clients, bundle, { rounds: fanOuts, sizes: [undefined] });
    return { ...figures, ...fanOutFigures(fanOut, { limits: true }) };
  } finally {
    await sim.close();
  }
}

/**
 * The same worker on a cluster with the incidents on 1% of its nodes each, so the scan lists the
 * agents and the nodes, and the cgroup check walks the tree where the hooks are gone.
 */
export async function brokenWorkerBench(nodes: number): Promise<Figures> {
  const bundle = await bundleWorkerChild();
  const broken = brokenCluster(nodes);
  const sim = await startSim({ cluster: broken.cluster, controllers: false });
  try {
    const clients = clientsOf(sim);
    const rounds = roundsAt(nodes);
    const { figures } = await scanFigures(clients, bundle, { limits: false, rounds });
    settle();
    const fanOut = await fanOutRuns(sim, clients, bundle, { rounds, sizes: [undefined] });
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

/**
 * The scan alone, beside the plain paged GET, on a cluster of `nodes` nodes with `podsPerNode`
 * pods each: its peak RSS must not grow with the cluster.
 */
export async function scanAtScaleBench(nodes: number, podsPerNode: number): Promise<Figures> {
  const bundle = await bundleWorkerChild();
  const cluster = buildCluster(['scale'], { nodes, podsPerNode });
  const sim = await startSim({ cluster, controllers: false });
  try {
    const { figures } = await scanFigures(clientsOf(sim), bundle, { limits: true, rounds: ROUNDS });
    return {
      'pods / CEPs': `${cluster.store.count(R.pods)} / ${cluster.store.count(R.ciliumendpoints)}`,
      ...figures,
    };
  } finally {
    await sim.close();
  }
}
