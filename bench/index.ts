import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { bundlesBench } from './bundles.ts';
import { cliStartupBench } from './cli-startup.ts';
import { eventPlaneBench } from './event-plane.ts';
import { asFigure, describe, type Figures, withinLimit } from './figures.ts';
import { runbookScaleBench } from './runbook-scale.ts';
import { simPagingBench } from './sim-paging.ts';
import { NODES, ROUNDS } from './sizes.ts';
import { stormBench } from './storm.ts';
import { brokenWorkerBench, healthyWorkerBench } from './worker-scale.ts';

/**
 * `npm run bench`: each benchmark's figures, measured within one run (machines here are noisy),
 * each a median of at least five runs with its spread, printed and written to bench/results.json
 * beside its limit when it has one. BENCH_ONLY=<part of a name> runs only the benchmarks it names;
 * their sections replace the file's, the others stay as they were. BENCH_NODES and BENCH_ROUNDS
 * size the run (bench/sizes.ts); the file records the sizes.
 */
const benches: Record<string, () => Figures | Promise<Figures>> = {
  'simulator paging at scale': simPagingBench,
  'unmanaged-pods at scale': runbookScaleBench,
  [`worker at ${NODES.toLocaleString('en-US')} nodes, healthy cluster`]: healthyWorkerBench,
  [`worker at ${NODES.toLocaleString('en-US')} nodes, broken cluster`]: brokenWorkerBench,
  'event plane': eventPlaneBench,
  'alert storms': stormBench,
  'CLI startup': cliStartupBench,
  'Lambda bundles': bundlesBench,
};

// The AWS SDK warns on every client under Node 20, which the project supports (as bin/responder.js says).
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const RESULTS = new URL('./results.json', import.meta.url);
const only = process.env.BENCH_ONLY?.toLowerCase();
const chosen = Object.entries(benches).filter(([name]) => !only || name.toLowerCase().includes(only));
if (chosen.length === 0) {
  process.stderr.write(
    `BENCH_ONLY="${only}" names no benchmark; known: ${Object.keys(benches).join(', ')}\n`,
  );
  process.exit(2);
}

const machine = {
  cpus: cpus().length,
  model: cpus()[0]?.model ?? 'unknown',
  memoryGiB: Math.round(totalmem() / 2 ** 30),
  loadAverageAtStart: loadavg().map((load) => Number(load.toFixed(2))),
};
process.stdout.write(
  `${machine.cpus} CPUs (${machine.model}), load average ${machine.loadAverageAtStart.join(' ')}\n`,
);

const results: Record<string, Record<string, unknown>> = {};
let failed = 0;
for (const [name, bench] of chosen) {
  process.stdout.write(`\n${name}\n`);
  const started = performance.now();
  results[name] = {};
  for (const [label, entry] of Object.entries(await bench())) {
    const figure = asFigure(entry);
    const ok = withinLimit(figure);
    if (ok === false) failed++;
    const limit =
      figure.atMost !== undefined
        ? ` (limit <= ${figure.atMost})`
        : figure.atLeast !== undefined
          ? ` (limit >= ${figure.atLeast})`
          : '';
    process.stdout.write(
      `  ${label}: ${describe(figure)}${limit}${ok === false ? '  OVER THE LIMIT' : ''}\n`,
    );
    (results[name] as Record<string, unknown>)[label] = { ...figure, ...(ok === undefined ? {} : { ok }) };
  }
  process.stdout.write(`  (${((performance.now() - started) / 1000).toFixed(0)} s)\n`);
}

// Sections this run did not measure stay as they were, with the rest of the file (other keys included).
const previous = existsSync(RESULTS)
  ? (JSON.parse(readFileSync(RESULTS, 'utf8')) as Record<string, unknown>)
  : {};
const previousResults = (previous.results ?? {}) as Record<string, unknown>;
const merged = only
  ? { ...previousResults, ...results }
  : { ...results, ...unknownSections(previousResults) };
writeFileSync(
  RESULTS,
  `${JSON.stringify(
    {
      ...previous,
      measuredAt: new Date().toISOString(),
      node: process.version,
      machine,
      sizes: { nodes: NODES, rounds: ROUNDS },
      results: merged,
    },
    null,
    2,
  )}\n`,
);
process.stdout.write(
  `\nbench/results.json written; ${failed === 0 ? 'every figure within its limit' : `${failed} over the limit`}\n`,
);

/** Sections another tool wrote into the file (no benchmark here has their name): kept. */
function unknownSections(previousResults: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(previousResults).filter(([name]) => !(name in benches)));
}

// The stalled-cluster server leaves work that never ends; the figures are written.
process.exit(0);
