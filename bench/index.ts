import { simPagingBench } from './sim-paging.ts';

/** `npm run bench`: each benchmark prints ratios measured within one run. */
const benches = { 'simulator paging at scale': simPagingBench };

for (const [name, bench] of Object.entries(benches)) {
  process.stdout.write(`\n${name}\n`);
  for (const [label, value] of Object.entries(bench())) process.stdout.write(`  ${label}: ${value}\n`);
}
