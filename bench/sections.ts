import { bundlesBench } from './bundles.ts';
import { cliStartupBench } from './cli-startup.ts';
import { consoleRunsBench } from './console-runs.ts';
import { eventPlaneBench } from './event-plane.ts';
import type { Figures } from './figures.ts';
import { runbookScaleBench } from './runbook-scale.ts';
import { simPagingBench } from './sim-paging.ts';
import { CLUSTER_SIZES } from './sizes.ts';
import { stormBench } from './storm.ts';
import { brokenWorkerBench, healthyWorkerBench, scanAtScaleBench } from './worker-scale.ts';

export type Section = () => Figures | Promise<Figures>;

const nodesLabel = (nodes: number) => nodes.toLocaleString('en-US');

/**
 * Every section the bench makes, by the name results.json files it under, in the order a whole
 * run measures them. A section another tool wants in results.json is added here, so the bench
 * makes it: the file holds nothing else (test/bench/results-file.test.ts).
 */
export function benchSections(sizes: readonly number[] = CLUSTER_SIZES): Record<string, Section> {
  return {
    'simulator paging at scale': simPagingBench,
    'unmanaged-pods at scale': runbookScaleBench,
    ...Object.fromEntries(
      sizes.flatMap((nodes, index) => [
        [
          `worker at ${nodesLabel(nodes)} nodes, healthy cluster`,
          () => healthyWorkerBench(nodes, { perProcess: index === 0, firstSize: sizes[0] as number }),
        ],
        [`worker at ${nodesLabel(nodes)} nodes, broken cluster`, () => brokenWorkerBench(nodes)],
      ]),
    ),
    // The largest cluster the simulator hosts: 600,000 pods.
    'unmanaged scan at 12,000 nodes x 50 pods': () => scanAtScaleBench(12_000, 50),
    'event plane': eventPlaneBench,
    'alert storms': stormBench,
    'console runs list': consoleRunsBench,
    'CLI startup': cliStartupBench,
    'Lambda bundles': bundlesBench,
  };
}
