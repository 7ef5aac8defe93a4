import { describe, expect, it } from 'vitest';
import { describe as describeFigure, fromRuns, median, pairedRatios } from '../../bench/figures.ts';

describe('bench figures', () => {
  it('a figure from runs is their median, with the lowest and highest run and the count', () => {
    const figure = fromRuns([2.31, 1.75, 3.02, 2.39, 2.1], 2, { atMost: 1.3 });
    expect(figure).toEqual({ value: 2.31, spread: { min: 1.75, max: 3.02 }, runs: 5, atMost: 1.3 });
    expect(describeFigure(figure)).toBe('2.31 (1.75-3.02, 5 runs)');
  });

  it('the median of an even count is the mean of the middle two', () => {
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });

  it('a ratio is taken per round before it is summarised, so one slow round moves both sides', () => {
    // Round 2 ran on a busy machine: both sides doubled, the ratio did not move.
    const ratios = pairedRatios([1.1, 2.2, 1.1], [1, 2, 1]);
    expect(fromRuns(ratios, 2).spread).toEqual({ min: 1.1, max: 1.1 });
    expect(() => pairedRatios([1], [1, 2])).toThrow(/differ in length/);
  });

  it('refuses a figure without runs', () => {
    expect(() => fromRuns([], 2)).toThrow(/at least one run/);
  });
});
