import { describe, expect, it } from 'vitest';
import { measureSections, SECTION_FAILED, SECTION_TIME } from '../../bench/measure-sections.ts';
import { resultsFile, thisMachine } from '../../bench/results-file.ts';

describe('measuring the bench sections', () => {
  it('records a section that throws with its reason, goes on to the next, and counts it as over', async () => {
    const printed: string[] = [];
    const results = await measureSections(
      [
        ['alert storms', () => Promise.reject(new Error('1 jobs neither ended nor went to the DLQ'))],
        ['CLI startup', () => ({ 'responder --help (s)': { value: 0.2, atMost: 0.5 } })],
      ],
      (text) => printed.push(text),
    );
    expect(results['alert storms']).toEqual({
      [SECTION_FAILED]: { value: '1 jobs neither ended nor went to the DLQ', ok: false },
      [SECTION_TIME]: { value: 0 },
    });
    expect(results['CLI startup']).toEqual({
      'responder --help (s)': { value: 0.2, atMost: 0.5, ok: true },
      [SECTION_TIME]: { value: 0 },
    });
    expect(printed.join('')).toContain('section failed: 1 jobs neither ended nor went to the DLQ');
    const file = resultsFile({
      measuredAt: new Date(),
      machine: thisMachine(),
      loadAtStart: [0.1, 0.1, 0.1],
      loadAtEnd: [1, 1, 1],
      sizes: { clusterNodes: [5_000], rounds: 5 },
      results,
    });
    expect(file.overLimit).toBe(1);
  });
});
