// Development probe (not a bench section): the bench's own worker child, one run at a time, each
// printed as it ends, so a size the bench measures for an hour shows its figures as they come.
//   node --import tsx --max-old-space-size=8192 bench/worker-probe.ts 100000 3 plain scan fanout
// Arguments: the healthy cluster's nodes, the rounds, then the runs of a round in order (plain:
// the plain paged GET of both lists; scan: the unmanaged-pods runbook; fanout: the cgroup check at
// 50 ms an exec; fanout1: the same inside one vCPU's quota, as the bench's limited figure). Prints
// scan / plain and fan-out / ideal per round.
import { startSim } from '../sim/index.ts';
import { cpuQuota, MB_PER_VCPU } from './cpu-quota.ts';
import { healthyCluster } from './scale-clusters.ts';
import { bundleWorkerChild, clientsOf, settle } from './worker-runs.ts';

const [nodesArg = '5000', roundsArg = '3', ...modes] = process.argv.slice(2);
const nodes = Number(nodesArg);
const rounds = Number(roundsArg);
const runs = modes.length > 0 ? modes : ['plain', 'scan'];
if (!runs.every((mode) => ['plain', 'scan', 'fanout', 'fanout1'].includes(mode)))
  throw new Error(`runs are plain, scan, fanout or fanout1: ${runs.join(' ')}`);
const EXEC_LATENCY_MS = 50;
const CONCURRENCY = 16;

const started = performance.now();
const bundle = await bundleWorkerChild();
const sim = await startSim({ cluster: healthyCluster(nodes), controllers: false });
console.log(`${nodes} nodes built and served in ${((performance.now() - started) / 1000).toFixed(0)} s`);
const clients = clientsOf(sim);
try {
  for (let round = 1; round <= rounds; round++) {
    const seconds = new Map<string, number>();
    for (const mode of runs) {
      settle();
      const fanOut = mode.startsWith('fanout');
      if (fanOut) sim.faults.set('exec', { latencyMs: EXEC_LATENCY_MS });
      const quota = mode === 'fanout1' ? cpuQuota(MB_PER_VCPU) : undefined;
      const run = await clients
        .worker(bundle, fanOut ? 'fanout' : mode, quota)
        .finally(() => quota?.remove());
      sim.faults.clear('exec');
      seconds.set(mode, run.seconds);
      const ideal = fanOut
        ? ` (${(run.seconds / ((run.execs * EXEC_LATENCY_MS) / 1000 / CONCURRENCY)).toFixed(2)}x ideal)`
        : '';
      console.log(
        `${new Date().toISOString()} round ${round} ${mode}: ${run.seconds.toFixed(1)} s${ideal}, CPU ${run.cpuSeconds?.toFixed(1)} s, peak RSS ${run.maxRssMiB.toFixed(0)} MiB, execs ${run.execs}, client CPU ${(((run.cpuSeconds ?? Number.NaN) * 1000) / run.execs).toFixed(2)} ms an exec, ${run.verdict}`,
      );
    }
    const [scan, plain] = [seconds.get('scan'), seconds.get('plain')];
    if (scan && plain) console.log(`  round ${round}: scan / plain ${(scan / plain).toFixed(3)}`);
  }
} finally {
  await sim.close();
}
process.exit(0);
