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

  it('follows pods created, bound and deleted after it was made, as each write lands', () => {
    const [node, other] = [...cluster.agents.keys()] as [string, string];
    const [template] = podsOnNode(cluster, node) as [Pod];
    const names = (on: string) => podsOnNode(cluster, on).map((pod) => pod.metadata.name);
    const { uid: _uid, resourceVersion: _rv, ...metadata } = template.metadata;
    cluster.store.create<Pod>(R.pods, { ...template, metadata: { ...metadata, name: 'late' } });
    expect(names(node)).toContain('late');

    const { nodeName: _node, ...unbound } = template.spec;
    cluster.store.create<Pod>(R.pods, {
      ...template,
      metadata: { ...metadata, name: 'pending' },
      spec: unbound,
    });
    expect([...cluster.agents.keys()].flatMap(names)).not.toContain('pending');
    cluster.store.update<Pod>(R.pods, metadata.namespace, 'pending', (p) => ({
      ...p,
      spec: { ...p.spec, nodeName: other },
    }));
    expect(names(other)).toContain('pending');
    expect(names(node)).not.toContain('pending');

    cluster.store.delete(R.pods, metadata.namespace, 'late');
    cluster.store.delete(R.pods, metadata.namespace, template.metadata.name);
    expect(names(node)).not.toContain('late');
    expect(names(node)).not.toContain(template.metadata.name);
    expect(keys(podsOnNode(cluster, node))).toEqual(
      keys((cluster.store.list(R.pods).items as Pod[]).filter((pod) => pod.spec.nodeName === node)),
    );
  });
});
