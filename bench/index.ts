import { cliStartupBench } from './cli-startup.ts';
import { runbookScaleBench } from './runbook-scale.ts';
import { simPagingBench } from './sim-paging.ts';

/** `npm run bench`: each benchmark prints ratios measured within one run (machines here are noisy). */
const benches: Record<
  string,
  () => Record<string, number | string> | Promise<Record<string, number | string>>
> = {
  'simulator paging at scale': simPagingBench,
  'unmanaged-pods at scale': runbookScaleBench,
  'CLI startup': cliStartupBench,
};

for (const [name, bench] of Object.entries(benches)) {
  process.stdout.write(`\n${name}\n`);
  for (const [label, value] of Object.entries(await bench())) process.stdout.write(`  ${label}: ${value}\n`);
}
