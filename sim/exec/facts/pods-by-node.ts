import { R, type SimCluster } from '../../cluster.ts';
import type { Pod } from '../../objects.ts';
import type { Store } from '../../store.ts';

const cache = new WeakMap<Store, { revision: number; byNode: Map<string, Pod[]> }>();

/**
 * The pods bound to a node. One scan of the store per revision serves every agent's exec, so a fan
 * out over thousands of agents does not rescan hundreds of thousands of pods each time.
 */
export function podsOnNode(cluster: SimCluster, nodeName: string): Pod[] {
  const { store } = cluster;
  let entry = cache.get(store);
  if (!entry || entry.revision !== store.revision) {
    const byNode = new Map<string, Pod[]>();
    for (const item of store.list(R.pods).items) {
      const pod = item as Pod;
      const node = pod.spec.nodeName;
      if (!node) continue;
      const list = byNode.get(node);
      if (list) list.push(pod);
      else byNode.set(node, [pod]);
    }
    entry = { revision: store.revision, byNode };
    cache.set(store, entry);
  }
  return entry.byNode.get(nodeName) ?? [];
}
