import { describe, expect, it } from 'vitest';
import { isQuiet, recordFigure, resultsFile, thisMachine } from '../../bench/results-file.ts';

describe('bench results file', () => {
  const run = {
    measuredAt: new Date('2026-11-28T12:00:00Z'),
    machine: thisMachine(),
    loadAtStart: [0.31, 0.4, 0.5],
    loadAtEnd: [1.9, 1.1, 0.7],
    sizes: { clusterNodes: [5_000], rounds: 5 },
    results: {
      'CLI startup': {
        'responder --help (s)': recordFigure({ value: 0.6, atMost: 0.5 }),
        'node -e 0 (s)': recordFigure(0.04),
      },
    },
  };

  it("holds this run's sections and nothing else, with the machine and the load at both ends", () => {
    const file = resultsFile(run);
    expect(Object.keys(file.results)).toEqual(['CLI startup']);
    expect(file.machine).toMatchObject({ cpus: expect.any(Number), node: process.version });
    expect(file.machine.memoryGiB).toBeGreaterThan(0);
    expect(file.load).toEqual({ atStart: [0.31, 0.4, 0.5], atEnd: [1.9, 1.1, 0.7], quiet: true });
  });

  it('records each figure with its limit and whether it held, and counts those over', () => {
    const file = resultsFile(run);
    expect(file.results['CLI startup']?.['responder --help (s)']).toEqual({
      value: 0.6,
      atMost: 0.5,
      ok: false,
    });
    expect(file.results['CLI startup']?.['node -e 0 (s)']).toEqual({ value: 0.04 });
    expect(file.overLimit).toBe(1);
  });

  it('calls a run quiet only when the 1-minute load is under 0.5 as it starts', () => {
    expect(isQuiet([0.49, 3, 3])).toBe(true);
    expect(isQuiet([0.5, 0, 0])).toBe(false);
    expect(isQuiet([2.3, 2.3, 2.3])).toBe(false);
    expect(resultsFile({ ...run, loadAtStart: [2.3, 1, 1] }).load.quiet).toBe(false);
  });
});
