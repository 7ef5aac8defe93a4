import type { Sim } from '../sim/index.ts';
import { type CpuQuota, cpuQuota, MB_PER_VCPU } from './cpu-quota.ts';
import { type Figures, fromRuns } from './figures.ts';
import { ROUNDS } from './sizes.ts';
import type { ClientRun, clientsOf } from './worker-runs.ts';

const EXEC_LATENCY_MS = 50;
/** The engine's default fan-out (DEFAULT_LIMITS.concurrency). */
const CONCURRENCY = 16;

/** A Lambda memory size whose CPU share the worker ran in; `unlimited` is the whole machine. */
type Size = number | undefined;

/** The fan-out's runs per size, or why a size could not be measured here. */
export type FanOutRuns = Map<Size, ClientRun[] | { unmeasured: string }>;

const sizeLabel = (size: Size) =>
  size === undefined
    ? ''
    : `, CPU of a ${size.toLocaleString('en-US')} MB Lambda (${(size / MB_PER_VCPU).toFixed(2)} vCPU)`;

/**
 * The cgroup check in the bundled worker with every exec taking 50 ms at the simulator, round by
 * round for each size: the whole machine, and inside the CPU quota of each Lambda memory size.
 */
export async function fanOutRuns(
  sim: Sim,
  clients: ReturnType<typeof clientsOf>,
  bundle: string,
  sizes: readonly Size[],
): Promise<FanOutRuns> {
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
    if (quotas.has(size)) runs.set(size, []);
  }
  sim.faults.set('exec', { latencyMs: EXEC_LATENCY_MS });
  try {
    for (let round = 0; round < ROUNDS; round++) {
      for (const [size, quota] of quotas) {
        const run = await clients.worker(bundle, 'fanout', quota);
        (runs.get(size) as ClientRun[]).push(run);
      }
    }
  } finally {
    sim.faults.clear('exec');
    for (const quota of quotas.values()) quota?.remove();
  }
  return runs;
}

/**
 * Per size: the fan-out's wall time, over the ideal for the execs it made (execs x 50 ms / 16),
 * its client CPU per exec, and its peak RSS. The limits hold the unconstrained run only.
 */
export function fanOutFigures(runs: FanOutRuns, options: { limits: boolean }): Figures {
  const figures: Figures = {};
  for (const [size, measured] of runs) {
    const label = sizeLabel(size);
    if (!Array.isArray(measured)) {
      figures[`cgroup fan-out${label}`] = `not measured: ${measured.unmeasured}`;
      continue;
    }
    const limits = options.limits && size === undefined;
    const execs = [...new Set(measured.map((run) => run.execs))].join(', ');
    figures[`cgroup fan-out${label}: execs per run`] = execs;
    figures[`cgroup fan-out${label} at ${EXEC_LATENCY_MS} ms per exec (s)`] = fromRuns(
      measured.map((run) => run.seconds),
      1,
    );
    figures[`cgroup fan-out${label} / ideal (execs x latency / concurrency)`] = fromRuns(
      measured.map((run) => run.seconds / ((run.execs * EXEC_LATENCY_MS) / 1000 / CONCURRENCY)),
      2,
      limits ? { atMost: 1.3 } : {},
    );
    figures[`cgroup fan-out${label}: client CPU per exec (ms)`] = fromRuns(
      measured.map((run) => ((run.cpuSeconds ?? Number.NaN) * 1000) / run.execs),
      2,
    );
    figures[`cgroup fan-out${label}: peak RSS of the bundled worker (MiB)`] = fromRuns(
      measured.map((run) => run.maxRssMiB),
      0,
      limits ? { atMost: 300 } : {},
    );
    figures[`cgroup fan-out${label}: verdicts`] = [...new Set(measured.map((run) => run.verdict))].join(', ');
  }
  return figures;
}
