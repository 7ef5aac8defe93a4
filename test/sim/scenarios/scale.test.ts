import { describe, expect, it } from 'vitest';
import { R } from '../../../sim/cluster.ts';
import type { Pod } from '../../../sim/objects.ts';
import { buildScenario } from '../../../sim/scenarios/index.ts';
import { clock, endpoint } from './helpers.ts';

describe('scale', () => {
  it('builds 1,000 nodes with 30 pods each, every pod with a CEP', () => {
    const started = performance.now();
    const { cluster, plan } = buildScenario(['scale'], { now: clock, nodes: 1000, podsPerNode: 30 });
    const seconds = (performance.now() - started) / 1000;
    expect(cluster.store.count(R.nodes)).toBe(1000);
    expect(cluster.store.count(R.ciliumnodes)).toBe(1000);
    expect(cluster.agents.size).toBe(1000);
    expect(plan.scale?.pods).toBe(30_000);

    const perNode = new Map<string, number>();
    for (const namespace of plan.scale?.namespaces ?? []) {
      for (const pod of cluster.store.list(R.pods, { namespace }).items as Pod[]) {
        expect(endpoint(cluster, pod)).toBeDefined();
        const node = pod.spec.nodeName as string;
        perNode.set(node, (perNode.get(node) ?? 0) + 1);
      }
    }
    expect(perNode.size).toBe(1000);
    expect(new Set(perNode.values())).toEqual(new Set([30]));
    const withoutEndpoint = (cluster.store.list(R.pods).items as Pod[]).filter(
      (p) => !p.spec.hostNetwork && !endpoint(cluster, p),
    );
    expect(withoutEndpoint).toEqual([]);
    // A generous bound: the point is that it stays seconds, not minutes.
    expect(seconds).toBeLessThan(20);
  });
});
