import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ResultsFile } from '../../bench/results-file.ts';
import { RESULTS_PAGE, resultsPage } from '../../bench/results-page.ts';
import { benchSections } from '../../bench/sections.ts';

const committed = JSON.parse(
  readFileSync(new URL('../../bench/results.json', import.meta.url), 'utf8'),
) as ResultsFile;

describe('the committed bench results', () => {
  it('hold the sections a whole run at their sizes makes, and nothing else', () => {
    expect(Object.keys(committed.results)).toEqual(Object.keys(benchSections(committed.sizes.clusterNodes)));
  });

  it('are what docs/bench-results.md shows', () => {
    expect(readFileSync(RESULTS_PAGE, 'utf8')).toBe(resultsPage(committed));
  });
});
