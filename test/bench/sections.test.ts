import { describe, expect, it } from 'vitest';
import { benchSections } from '../../bench/sections.ts';

const workerSections = (sizes: number[]) =>
  Object.keys(benchSections(sizes)).filter(
    (name) => name.startsWith('worker') || name.startsWith('unmanaged scan'),
  );

describe('the sections a whole run makes', () => {
  it('measures the healthy worker at every size and the broken one at the first', () => {
    expect(workerSections([5_000, 20_000, 100_000])).toEqual([
      'worker at 5,000 nodes, healthy cluster',
      'worker at 5,000 nodes, broken cluster',
      'worker at 20,000 nodes, healthy cluster',
      'worker at 100,000 nodes, healthy cluster',
    ]);
  });

  it('adds the scan at 600,000 pods only when no size reaches them', () => {
    expect(workerSections([5_000])).toEqual([
      'worker at 5,000 nodes, healthy cluster',
      'worker at 5,000 nodes, broken cluster',
      'unmanaged scan at 12,000 nodes x 50 pods',
    ]);
    expect(workerSections([5_000, 20_000])).not.toContain('unmanaged scan at 12,000 nodes x 50 pods');
  });
});
