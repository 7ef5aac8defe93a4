import { MIN_RUNS } from './figures.ts';

/**
 * The bench's sizes. The figures in results.json and the README come from the defaults;
 * BENCH_NODES and BENCH_ROUNDS shrink or grow a development run (never below five rounds, so
 * every figure still has a median and a spread).
 */
function whole(name: string, fallback: number, minimum: number): number {
  const text = process.env[name];
  if (text === undefined || text === '') return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < minimum)
    throw new Error(`${name} must be a whole number of at least ${minimum}, got "${text}"`);
  return value;
}

export const NODES = whole('BENCH_NODES', 5_000, 10);
export const ROUNDS = whole('BENCH_ROUNDS', MIN_RUNS, MIN_RUNS);
/** The defaults: the run whose figures may be written to results.json. */
export const FULL_SIZE = NODES === 5_000 && ROUNDS >= MIN_RUNS;
