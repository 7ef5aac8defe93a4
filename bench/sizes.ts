import { MIN_RUNS } from './figures.ts';

/**
 * The bench's sizes: 5,000 nodes and five rounds unless BENCH_NODES and BENCH_ROUNDS say
 * otherwise (never below five rounds, so every figure has a median and a spread). results.json
 * records the sizes its figures come from.
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
