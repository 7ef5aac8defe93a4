import { R } from '../sim/cluster.ts';
import { buildCluster } from '../sim/scenarios/index.ts';
import type { Store } from '../sim/store.ts';

/**
 * Does serving a page cost the same on a 150,000-pod store as on a 15,000-pod one? It should:
 * pages walk sorted keys from the continue position instead of copying or sorting the store.
 * Reported as a ratio of the two, measured interleaved in one run (machines here are noisy).
 */
const PAGE = 500;
const ROUNDS = 40;

function pageCost(store: Store, positions: string[]): number {
  const started = performance.now();
  for (const after of positions) store.list(R.pods, { after, limit: PAGE });
  return performance.now() - started;
}

function randomPositions(store: Store, count: number): string[] {
  const { items } = store.list(R.pods);
  const positions: string[] = [];
  for (let i = 0; i < count; i++) {
    const pod = items[Math.floor((i / count) * items.length)];
    positions.push(`${pod?.metadata.namespace}/${pod?.metadata.name}`);
  }
  return positions;
}

function heapMiB(): number {
  globalThis.gc?.();
  return process.memoryUsage().heapUsed / 2 ** 20;
}

export function simPagingBench(): Record<string, number | string> {
  const baseline = heapMiB();
  const buildStarted = performance.now();
  const large = buildCluster(['scale'], { nodes: 5000, podsPerNode: 30 });
  const buildSeconds = (performance.now() - buildStarted) / 1000;
  const largeHeap = heapMiB() - baseline;
  const small = buildCluster(['scale'], { nodes: 500, podsPerNode: 30 });
  const largePositions = randomPositions(large.store, 20);
  const smallPositions = randomPositions(small.store, 20);
  pageCost(large.store, largePositions);
  pageCost(small.store, smallPositions);
  let largeTotal = 0;
  let smallTotal = 0;
  for (let round = 0; round < ROUNDS; round++) {
    largeTotal += pageCost(large.store, largePositions);
    smallTotal += pageCost(small.store, smallPositions);
  }
  return {
    'pods (large / small)': `${large.store.count(R.pods)} / ${small.store.count(R.pods)}`,
    'CEPs in large': large.store.count(R.ciliumendpoints),
    'build 5,000 x 30 (s)': Number(buildSeconds.toFixed(1)),
    'heap for 5,000 x 30 (MiB)': Math.round(largeHeap),
    'page cost ratio large/small (1.0 = independent of store size)': Number(
      (largeTotal / smallTotal).toFixed(2),
    ),
  };
}
