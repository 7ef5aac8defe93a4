import { writeFileSync } from 'node:fs';
import { bundlesBench } from './bundles.ts';
import { cliStartupBench } from './cli-startup.ts';
import { eventPlaneBench } from './event-plane.ts';
import { asFigure, type Figures, withinLimit } from './figures.ts';
import { runbookScaleBench } from './runbook-scale.ts';
import { simPagingBench } from './sim-paging.ts';
import { workerScaleBench } from './worker-scale.ts';

/**
 * `npm run bench`: each benchmark's figures, measured within one run (machines here are noisy),
 * printed and written to bench/results.json, each beside its limit when it has one.
 */
const benches: Record<string, () => Figures | Promise<Figures>> = {
  'simulator paging at scale': simPagingBench,
  'unmanaged-pods at scale': runbookScaleBench,
  'worker at 5,000 nodes': workerScaleBench,
  'event plane': eventPlaneBench,
  'CLI startup': cliStartupBench,
  'Lambda bundles': bundlesBench,
};

const results: Record<string, Record<string, unknown>> = {};
let failed = 0;
for (const [name, bench] of Object.entries(benches)) {
  process.stdout.write(`\n${name}\n`);
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
    process.stdout.write(`  ${label}: ${figure.value}${limit}${ok === false ? '  OVER THE LIMIT' : ''}\n`);
    (results[name] as Record<string, unknown>)[label] = { ...figure, ...(ok === undefined ? {} : { ok }) };
  }
}
writeFileSync(
  new URL('./results.json', import.meta.url),
  `${JSON.stringify({ measuredAt: new Date().toISOString(), node: process.version, results }, null, 2)}\n`,
);
process.stdout.write(
  `\nbench/results.json written; ${failed === 0 ? 'every figure within its limit' : `${failed} over the limit`}\n`,
);
// The stalled-cluster server leaves work that never ends; the figures are written.
process.exit(0);
