import { describe } from './figures.ts';
import { limitText, type RecordedFigure, recordFigure } from './results-file.ts';
import type { Section } from './sections.ts';

/** What results.json says of a section that threw: the run went on, and this counts as over the limit. */
export const SECTION_FAILED = 'section failed';

/** How long a section took, recorded with its figures: what a whole run's time is made of. */
export const SECTION_TIME = 'time for this section (s)';

/**
 * Measures each section in turn, printing each figure as it comes. A section that throws is
 * recorded with its error and the run goes on: a whole run takes an hour here, and one broken
 * section must not throw away every other figure (nor hide among them: it counts as over).
 */
export async function measureSections(
  sections: readonly (readonly [string, Section])[],
  print: (text: string) => void,
): Promise<Record<string, Record<string, RecordedFigure>>> {
  const results: Record<string, Record<string, RecordedFigure>> = {};
  for (const [name, section] of sections) {
    print(`\n${name}\n`);
    const started = performance.now();
    const figures: Record<string, RecordedFigure> = {};
    try {
      for (const [label, entry] of Object.entries(await section())) {
        const figure = recordFigure(entry);
        figures[label] = figure;
        print(
          `  ${label}: ${describe(figure)}${limitText(figure)}${figure.ok === false ? '  OVER THE LIMIT' : ''}\n`,
        );
      }
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      figures[SECTION_FAILED] = { value: reason, ok: false };
      print(`  ${SECTION_FAILED}: ${reason}\n`);
    }
    const seconds = Math.round((performance.now() - started) / 1000);
    figures[SECTION_TIME] = { value: seconds };
    results[name] = figures;
    print(`  (${seconds} s)\n`);
  }
  return results;
}
