import { writeFileSync } from 'node:fs';
import { measureSections } from './measure-sections.ts';
import { isQuiet, loadNow, QUIET_LOAD, resultsFile, thisMachine } from './results-file.ts';
import { RESULTS_PAGE, resultsPage } from './results-page.ts';
import { benchSections } from './sections.ts';
import { CLUSTER_SIZES, NODES_OVERRIDE, ROUNDS } from './sizes.ts';

/**
 * `npm run bench`: every section of bench/sections.ts, each figure a median of at least five runs
 * with its spread, printed and written beside its limit. Only a whole run at the bench's own sizes
 * writes bench/results.json, and it writes the file whole: the machine, the load at the start and
 * the end, and this run's sections alone, with docs/bench-results.md, the page the docs quote. BENCH_ONLY=<part of a name> (some sections) or
 * BENCH_NODES=<n> (the worker at another size) is a development run: it writes
 * bench/results.subset.json (not kept in git) and leaves results.json alone.
 */

// Lambda sets no NODE_EXTRA_CA_CERTS; a child that inherits one reads a CA bundle at every start
// (about 35 ms), which would slow `node -e 0` and the functions alike and flatter every ratio.
delete process.env.NODE_EXTRA_CA_CERTS;
// The AWS SDK warns on every client under Node 20, which the project supports (as bin/responder.js says).
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const only = process.env.BENCH_ONLY?.toLowerCase();
const sizes = NODES_OVERRIDE === undefined ? CLUSTER_SIZES : [NODES_OVERRIDE];
const whole = only === undefined && NODES_OVERRIDE === undefined;
const sections = benchSections(sizes);
const chosen = Object.entries(sections).filter(([name]) => !only || name.toLowerCase().includes(only));
if (chosen.length === 0) {
  process.stderr.write(`BENCH_ONLY="${only}" names no section; known: ${Object.keys(sections).join(', ')}\n`);
  process.exit(2);
}
const output = new URL(whole ? './results.json' : './results.subset.json', import.meta.url);

const machine = thisMachine();
const loadAtStart = loadNow();
process.stdout.write(
  `${machine.cpus} CPUs (${machine.model}), ${machine.memoryGiB} GiB, node ${machine.node}; load average ${loadAtStart.join(' ')}: ${
    isQuiet(loadAtStart) ? 'quiet' : `not quiet (quiet is a 1-minute load under ${QUIET_LOAD})`
  }\n`,
);

const results = await measureSections(chosen, (text) => process.stdout.write(text));

const file = resultsFile({
  measuredAt: new Date(),
  machine,
  loadAtStart,
  loadAtEnd: loadNow(),
  sizes: { clusterNodes: sizes, rounds: ROUNDS },
  results,
});
writeFileSync(output, `${JSON.stringify(file, null, 2)}\n`);
if (whole) writeFileSync(RESULTS_PAGE, resultsPage(file));
process.stdout.write(
  `\nload average at the end ${file.load.atEnd.join(' ')}; ${whole ? 'bench/results.json and docs/bench-results.md' : 'bench/results.subset.json (a development run)'} written; ${
    file.overLimit === 0 ? 'every figure within its limit' : `${file.overLimit} over the limit`
  }\n`,
);

// The stalled-cluster server leaves work that never ends; the figures are written.
process.exit(0);
