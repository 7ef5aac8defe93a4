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

/**
 * BENCH_NODES measures the worker at that one size instead, for development: such a run is not
 * the bench's, so it never writes results.json (bench/index.ts).
 */
export const NODES_OVERRIDE = whole('BENCH_NODES', 10);

/** Rounds per figure: five unless BENCH_ROUNDS says more, so every figure has a median and a spread. */
export const ROUNDS = whole('BENCH_ROUNDS', MIN_RUNS) ?? MIN_RUNS;
