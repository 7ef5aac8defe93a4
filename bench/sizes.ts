import { MIN_RUNS } from './figures.ts';

function whole(name: string, minimum: number): number | undefined {
  const text = process.env[name];
  if (text === undefined || text === '') return undefined;
  const value = Number(text);
  if (!Number.isInteger(value) || value < minimum)
    throw new Error(`${name} must be a whole number of at least ${minimum}, got "${text}"`);
  return value;
}

/**
 * The cluster sizes (nodes, 30 pods each) a whole run measures the worker at: 165,000, 600,000
 * and 3,000,000 pods (docs/scale.md says where a run's time goes).
 */
export const CLUSTER_SIZES: readonly number[] = [5_000, 20_000, 100_000];

/** The bundled worker's peak RSS at any of those sizes, scan or fan-out: flat, whatever the cluster (issue 30). */
export const WORKER_RSS_LIMIT_MIB = 256;

/**
 * BENCH_NODES measures the worker at that one size instead, for development: such a run is not
 * the bench's, so it never writes results.json (bench/index.ts).
 */
export const NODES_OVERRIDE = whole('BENCH_NODES', 10);

const roundsAsked = whole('BENCH_ROUNDS', MIN_RUNS);

/** Rounds per figure: five unless BENCH_ROUNDS says more, so every figure has a median and a spread. */
export const ROUNDS = roundsAsked ?? MIN_RUNS;

/** From this many nodes on, a round of the worker's figures is long enough to take fewer of them. */
export const LARGE_CLUSTER_NODES = 20_000;

/** From this many nodes on, one fan-out is a quarter of an hour. */
export const HUGE_CLUSTER_NODES = 100_000;

/**
 * Rounds of the worker's figures at a cluster of `nodes`. From 20,000 nodes a round is a scan and
 * a plain GET of 600,000 pods or more and a fan-out of 20,000 execs or more, minutes each: three
 * rounds still give a median and a spread, and five would add most of an hour to a whole run
 * (docs/scale.md). BENCH_ROUNDS applies at every size.
 */
export const roundsAt = (nodes: number): number =>
  roundsAsked ?? (nodes >= LARGE_CLUSTER_NODES ? 3 : MIN_RUNS);

/**
 * Fan-outs at a cluster of `nodes`: one at 100,000 agents, where the figure held to a limit is
 * the peak RSS, a maximum over 100,000 execs, and each run is about 15 minutes of a whole run.
 */
export const fanOutRoundsAt = (nodes: number): number =>
  roundsAsked ?? (nodes >= HUGE_CLUSTER_NODES ? 1 : roundsAt(nodes));
