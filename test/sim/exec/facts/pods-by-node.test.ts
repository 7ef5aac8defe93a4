import { describe, expect, it } from 'vitest';
import { R } from '../../../../sim/cluster.ts';
import { podsOnNode } from '../../../../sim/exec/facts/pods-by-node.ts';
import type { Pod } from '../../../../sim/objects.ts';
import { buildCluster } from '../../../../sim/scenarios/index.ts';

describe('podsOnNode', () => {
  // 200 nodes x 30: more pods than one page of the index's pass over the store.
  const cluster = buildCluster(['scale'], { nodes: 200, podsPerNode: 30 });
  const all = cluster.store.list(R.pods).items as Pod[];
  const expected = (node: string) =>
    all
      .filter((pod) => pod.spec.nodeName === node)
      .map((pod) => `${pod.metadata.namespace}/${pod.metadata.name}`)
      .sort();
  const keys = (pods: Pod[]) => pods.map((pod) => `${pod.metadata.namespace}/${pod.metadata.name}`).sort();

  it("gives every node exactly its pods, across the store's pages", () => {
    expect(all.length).toBeGreaterThan(5_000);
    let total = 0;
    for (const node of cluster.agents.keys()) {
      const pods = podsOnNode(cluster, node);
      expect(keys(pods)).toEqual(expected(node));
      total += pods.length;
    }
    expect(total).toBe(all.filter((pod) => pod.spec.nodeName).length);
  });

  it('sees a write at once: the pods are read from the store, not kept', () => {
    const [node] = cluster.agents.keys() as IterableIterator<string>;
    const [pod] = podsOnNode(cluster, node as string) as [Pod];
    cluster.store.update<Pod>(R.pods, pod.metadata.namespace, pod.metadata.name, (p) => ({
      ...p,
      metadata: { ...p.metadata, labels: { ...p.metadata.labels, seen: 'yes' } },
    }));
    const again = podsOnNode(cluster, node as string).find((p) => p.metadata.name === pod.metadata.name);
    expect(again?.metadata.labels?.seen).toBe('yes');
  });
});
