import { bundlesBench } from './bundles.ts';
import { cliStartupBench } from './cli-startup.ts';
import { consoleRunsBench } from './console-runs.ts';
import { eventPlaneBench } from './event-plane.ts';
import type { Figures } from './figures.ts';
import { runbookScaleBench } from './runbook-scale.ts';
import { PODS_PER_NODE } from './scale-clusters.ts';
import { simPagingBench } from './sim-paging.ts';
import { CLUSTER_SIZES } from './sizes.ts';
import { stormBench } from './storm.ts';
import { brokenWorkerBench, healthyWorkerBench, scanAtScaleBench } from './worker-scale.ts';

export type Section = () => Figures | Promise<Figures>;

/** The pods the scan must be measured at, at the least: 12,000 nodes x 50, or 20,000 x 30. */
const SCAN_AT_SCALE_PODS = 600_000;

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
        // The broken cluster's figures have no limit: they show the incidents' paths run (the scan
        // judging pods, the walks where hooks are gone). One size shows that; each larger one would
        // take as long again as its healthy section.
        ...(index === 0
          ? [[`worker at ${nodesLabel(nodes)} nodes, broken cluster`, () => brokenWorkerBench(nodes)]]
          : []),
      ]),
    ),
    // The 600,000 pods, when no size above reaches them.
    ...(sizes.some((nodes) => nodes * PODS_PER_NODE >= SCAN_AT_SCALE_PODS)
      ? {}
      : { 'unmanaged scan at 12,000 nodes x 50 pods': () => scanAtScaleBench(12_000, 50) }),
    'event plane': eventPlaneBench,
    'alert storms': stormBench,
    'console runs list': consoleRunsBench,
    'CLI startup': cliStartupBench,
    'Lambda bundles': bundlesBench,
  };
}
