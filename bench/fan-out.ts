import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EXEC_TIMELINE_CHANNEL } from '../sim/exec/timeline.ts';
import type { Sim } from '../sim/index.ts';
import { type CpuQuota, cpuQuota, MB_PER_VCPU } from './cpu-quota.ts';
import { medianTimeline, type Timeline, timelineSample, timelineText } from './exec-timeline.ts';
import { type Figures, fromRuns, pairedRatios } from './figures.ts';
import { startReplayExecServer } from './replay-exec-server.ts';
import { WORKER_RSS_LIMIT_MIB } from './sizes.ts';
import type { ClientRun, clientsOf } from './worker-runs.ts';

const EXEC_LATENCY_MS = 50;
/** The engine's default fan-out (DEFAULT_LIMITS.concurrency). */
const CONCURRENCY = 16;

/** A Lambda memory size whose CPU share the worker ran in; `unlimited` is the whole machine. */
type Size = number | undefined;

/** A size's runs, the simulator's side of a sample of their execs, and the same runs through the replaying server. */
interface Measured {
  runs: ClientRun[];
  simulator: ReturnType<typeof timelineSample>;
  replayed: ClientRun[];
}

/** The fan-out's runs per size, or why a size could not be measured here. */
export type FanOutRuns = Map<Size, Measured | { unmeasured: string }>;

const sizeLabel = (size: Size) =>
  size === undefined
    ? ''
    : `, CPU of a ${size.toLocaleString('en-US')} MB Lambda (${(size / MB_PER_VCPU).toFixed(2)} vCPU)`;

/**
 * The cgroup check in the bundled worker with every exec taking 50 ms at the simulator, round by
 * round for each size: the whole machine, and inside the CPU quota of each Lambda memory size.
 * At the sizes in `replayedAt`, each run is followed by the same run through a server that answers
 * every exec with the frames the simulator sent for that command (bench/replay-exec-server.ts):
 * what the simulator's own exec path costs the fan-out, apart from the client's. One size is
 * enough to tell them apart, and each replayed run is as long as the run it follows.
 */
export async function fanOutRuns(
  sim: Sim,
  clients: ReturnType<typeof clientsOf>,
  bundle: string,
  options: { rounds: number; sizes: readonly Size[]; replayedAt?: readonly Size[] },
): Promise<FanOutRuns> {
  const { rounds, sizes, replayedAt = [] } = options;
  const runs: FanOutRuns = new Map();
  const quotas = new Map<Size, CpuQuota | undefined>();
  for (const size of sizes) {
    if (size === undefined) quotas.set(size, undefined);
    else {
      try {
        quotas.set(size, cpuQuota(size));
      } catch (error) {
        runs.set(size, { unmeasured: (error as Error).message });
      }
    }
    if (quotas.has(size)) runs.set(size, { runs: [], simulator: timelineSample(), replayed: [] });
  }
  const replay = await startReplayExecServer(sim, EXEC_LATENCY_MS);
  const replayKubeconfig = join(mkdtempSync(join(tmpdir(), 'bench-replay-')), 'kubeconfig');
  writeFileSync(replayKubeconfig, replay.kubeconfig);
  let simulator = timelineSample();
  const record = (timeline: unknown) => simulator.offer(timeline as Timeline);
  subscribe(EXEC_TIMELINE_CHANNEL, record);
  sim.faults.set('exec', { latencyMs: EXEC_LATENCY_MS });
  try {
    for (let round = 0; round < rounds; round++) {
      for (const [size, quota] of quotas) {
        const measured = runs.get(size) as Measured;
        simulator = measured.simulator;
        measured.runs.push(await clients.worker(bundle, 'fanout', quota));
        if (!replayedAt.includes(size)) continue;
        const answered = replay.execs();
        const replayed = await clients.worker(bundle, 'fanout', quota, replayKubeconfig);
        measured.replayed.push({ ...replayed, execs: replay.execs() - answered });
      }
    }
  } finally {
    unsubscribe(EXEC_TIMELINE_CHANNEL, record);
    sim.faults.clear('exec');
    await replay.close();
    for (const quota of quotas.values()) quota?.remove();
  }
  return runs;
}

/** Each run's wall time over the ideal for the execs it made (execs x 50 ms / 16). */
const overIdeal = (runs: readonly ClientRun[]) =>
  runs.map((run) => run.seconds / ((run.execs * EXEC_LATENCY_MS) / 1000 / CONCURRENCY));

/**
 * Per size: the fan-out's wall time, over the ideal for the execs it made (execs x 50 ms / 16),
 * its client CPU per exec, its peak RSS, and the median exec moment by moment on both sides. The
 * time limit holds the run inside one vCPU (a 1,769 MB Lambda, the stack's worker), where the
 * worker runs; the memory limit the unconstrained run.
 */
export function fanOutFigures(runs: FanOutRuns, options: { limits: boolean }): Figures {
  const figures: Figures = {};
  for (const [size, sized] of runs) {
    const label = sizeLabel(size);
    if (!('runs' in sized)) {
      figures[`cgroup fan-out${label}`] = `not measured: ${sized.unmeasured}`;
      continue;
    }
    const measured = sized.runs;
    const timeLimit = options.limits && size === MB_PER_VCPU;
    const memoryLimit = options.limits && size === undefined;
    const execs = [...new Set(measured.map((run) => run.execs))].join(', ');
    figures[`cgroup fan-out${label}: execs per run`] = execs;
    figures[`cgroup fan-out${label}: worker invocations per run`] = [
      ...new Set(measured.map((run) => run.invocations ?? 1)),
    ].join(', ');
    figures[`cgroup fan-out${label} at ${EXEC_LATENCY_MS} ms per exec (s)`] = fromRuns(
      measured.map((run) => run.seconds),
      1,
    );
    figures[`cgroup fan-out${label} / ideal (execs x latency / concurrency)`] = fromRuns(
      overIdeal(measured),
      2,
      timeLimit ? { atMost: 1.3 } : {},
    );
    figures[`cgroup fan-out${label}: client CPU per exec (ms)`] = fromRuns(
      measured.map((run) => ((run.cpuSeconds ?? Number.NaN) * 1000) / run.execs),
      2,
    );
    figures[`cgroup fan-out${label}: peak RSS of the bundled worker (MiB)`] = fromRuns(
      measured.map((run) => run.maxRssMiB),
      0,
      memoryLimit ? { atMost: WORKER_RSS_LIMIT_MIB } : {},
    );
    const client = measured.flatMap((run) => (run.execTimeline ? [run.execTimeline] : []));
    figures[`cgroup fan-out${label}: median exec at the client (ms after its request began)`] = timelineText(
      medianTimeline(client),
    );
    figures[`cgroup fan-out${label}: median exec at the simulator (ms after its upgrade arrived)`] =
      timelineText(medianTimeline(sized.simulator.kept));
    if (sized.replayed.length > 0) Object.assign(figures, replayFigures(label, sized));
    figures[`cgroup fan-out${label}: verdicts`] = [
      ...new Set([...measured, ...sized.replayed].map((run) => run.verdict)),
    ].join(', ');
  }
  return figures;
}

/** The same runs through the replaying server, beside the simulator's. */
function replayFigures(label: string, sized: Measured): Figures {
  const figures: Figures = {};
  figures[`cgroup fan-out${label}, every exec answered by a replaying server / ideal`] = fromRuns(
    overIdeal(sized.replayed),
    2,
  );
  figures[`cgroup fan-out${label}: simulator / replaying server (time, paired)`] = fromRuns(
    pairedRatios(
      sized.runs.map((run) => run.seconds),
      sized.replayed.map((run) => run.seconds),
    ),
    2,
  );
  figures[`cgroup fan-out${label}: median exec at the client, replaying server`] = timelineText(
    medianTimeline(sized.replayed.flatMap((run) => (run.execTimeline ? [run.execTimeline] : []))),
  );
  return figures;
}
