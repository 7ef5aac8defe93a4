import { describe, expect, it } from 'vitest';
import { MIN_RUNS } from '../../bench/figures.ts';
import { CLUSTER_SIZES, fanOutRoundsAt, roundsAt } from '../../bench/sizes.ts';

describe('the sizes a whole run measures', () => {
  it('reach 3 million pods, at 30 a node', () => {
    expect(CLUSTER_SIZES).toEqual([5_000, 20_000, 100_000]);
  });

  it('take five rounds, and three where one round is minutes of a 600,000-pod cluster or more', () => {
    expect(roundsAt(5_000)).toBe(MIN_RUNS);
    expect(roundsAt(20_000)).toBe(3);
    expect(roundsAt(100_000)).toBe(3);
  });

  it('fan out once at 100,000 agents, a quarter of an hour a run, and each round elsewhere', () => {
    expect(fanOutRoundsAt(5_000)).toBe(MIN_RUNS);
    expect(fanOutRoundsAt(20_000)).toBe(3);
    expect(fanOutRoundsAt(100_000)).toBe(1);
  });
});
