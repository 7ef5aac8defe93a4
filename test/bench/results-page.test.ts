import { describe, expect, it } from 'vitest';
import { recordFigure, resultsFile } from '../../bench/results-file.ts';
import { resultsPage } from '../../bench/results-page.ts';

describe('bench results page', () => {
  const file = resultsFile({
    measuredAt: new Date('2026-11-28T12:00:00Z'),
    machine: { cpus: 2, model: 'Test CPU', memoryGiB: 24, node: 'v20.20.2' },
    loadAtStart: [0.31, 0.4, 0.5],
    loadAtEnd: [1.9, 1.1, 0.7],
    sizes: { clusterNodes: [5_000], rounds: 5 },
    results: {
      'CLI startup': {
        'responder --help (s)': recordFigure({
          value: 0.6,
          spread: { min: 0.5, max: 0.7 },
          runs: 5,
          atMost: 0.5,
        }),
        'node -e 0 (s)': recordFigure(0.04),
      },
      'console runs list': {
        'list of 50, verdict | source filter (ms)': recordFigure({ value: 42, atMost: 100 }),
      },
    },
  });
  const page = resultsPage(file);

  it('says when, where and under what load the run was made', () => {
    expect(page).toContain('2026-11-28T12:00:00.000Z, 2 CPUs (Test CPU), 24 GiB, Node v20.20.2');
    expect(page).toContain('at the start 0.31, 0.4, 0.5, at the end 1.9, 1.1, 0.7: quiet');
    expect(page).toContain('Worker sizes: 5,000 nodes; 5 rounds per figure');
    expect(page).toContain('Figures over their limit: 1');
  });

  it('shows every figure under its section, with its spread, its limit and whether it held', () => {
    expect(page).toContain('## CLI startup');
    expect(page).toContain('| responder --help (s) | 0.6 (0.5-0.7, 5 runs) | <= 0.5 | **over** |');
    expect(page).toContain('| node -e 0 (s) | 0.04 |  |  |');
    expect(page).toContain('| list of 50, verdict \\| source filter (ms) | 42 | <= 100 | held |');
  });

  it('calls a run made under load not quiet', () => {
    const loaded = resultsPage({ ...file, load: { ...file.load, atStart: [2.3, 1, 1], quiet: false } });
    expect(loaded).toContain('at the start 2.3, 1, 1, at the end 1.9, 1.1, 0.7: not quiet');
  });
});
