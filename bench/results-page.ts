import { describe } from './figures.ts';
import { limitText, QUIET_LOAD, type RecordedFigure, type ResultsFile } from './results-file.ts';

/** Where a whole run publishes its figures for people: docs quote this page, never a number by hand. */
export const RESULTS_PAGE = new URL('../docs/bench-results.md', import.meta.url);

const verdict = (figure: RecordedFigure) => (figure.ok === undefined ? '' : figure.ok ? 'held' : '**over**');

const cell = (text: string) => text.replaceAll('|', '\\|');

/**
 * bench/results.json as a page of tables, one per section, each figure beside its limit and
 * whether it held. `npm run bench` writes it with results.json, and a test holds the committed
 * page to the committed file, so the docs cannot quote a figure no run measured.
 */
export function resultsPage(file: ResultsFile): string {
  const { machine, load } = file;
  const lines = [
    '# Bench results',
    '',
    `Written by \`npm run bench\` from \`bench/results.json\` (one whole run; do not edit by hand).`,
    '',
    `- Measured: ${file.measuredAt}, ${machine.cpus} CPUs (${machine.model}), ${machine.memoryGiB} GiB, Node ${machine.node}`,
    `- Load average (1, 5, 15 min) at the start ${load.atStart.join(', ')}, at the end ${load.atEnd.join(', ')}: ${
      load.quiet ? 'quiet' : `not quiet (quiet is a 1-minute load under ${QUIET_LOAD} at the start)`
    }`,
    `- Worker sizes: ${file.sizes.clusterNodes.map((nodes) => nodes.toLocaleString('en-US')).join(', ')} nodes; ${file.sizes.rounds} rounds per figure`,
    `- Figures over their limit: ${file.overLimit}`,
    '',
    'Each figure is the median of its runs, with the lowest and highest run and the run count in brackets.',
  ];
  for (const [section, figures] of Object.entries(file.results)) {
    lines.push('', `## ${section}`, '', '| figure | value | limit | held |', '|---|---|---|---|');
    for (const [label, figure] of Object.entries(figures)) {
      lines.push(
        `| ${cell(label)} | ${cell(describe(figure))} | ${limitText(figure).replace(/^ \(limit (.*)\)$/, '$1')} | ${verdict(figure)} |`,
      );
    }
  }
  return `${lines.join('\n')}\n`;
}
