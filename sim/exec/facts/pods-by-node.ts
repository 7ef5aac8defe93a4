import { R, type SimCluster } from '../../cluster.ts';
import type { KubeObject, Pod } from '../../objects.ts';
import type { Store } from '../../store.ts';

/** Pods read per page while indexing. */
const PAGE = 5_000;

/** What the index keeps of a pod, read from a compact row's values without building the pod. */
const placeOf = (pod: KubeObject): [string | undefined, string, string] => [
  (pod as Pod).spec.nodeName,
  pod.metadata.namespace ?? '',
  pod.metadata.name,
];

/** Per node, its pods' namespaces and names, alternating: a 3-million-pod index, not 3 million built pods. */
type ByNode = Map<string, string[]>;

const cache = new WeakMap<Store, { revision: number; byNode: ByNode }>();

function indexByNode(store: Store): ByNode {
  const byNode: ByNode = new Map();
  let after: string | undefined;
  do {
    const page = store.listReads(R.pods, { limit: PAGE, ...(after === undefined ? {} : { after }) });
    for (const item of page.items) {
      const [node, namespace, name] = item.derived(placeOf);
      if (!node) continue;
      const names = byNode.get(node);
      if (names) names.push(namespace, name);
      else byNode.set(node, [namespace, name]);
    }
    after = page.nextKey;
  } while (after !== undefined);
  return byNode;
}

/**
 * The pods bound to a node. One pass over the store per revision indexes every node's pods by
 * name (read from the compact rows' values: building 3.3 million pods to index them stalled the
 * first exec of a 100,000-node fan-out for about a minute), so a fan-out over thousands of agents does not rescan hundreds of thousands of pods each
 * time; the pods themselves are built from the store when asked for, so the index of a
 * 100,000-node cluster holds names, not the 3 million pods the compact store keeps as rows.
 */
export function podsOnNode(cluster: SimCluster, nodeName: string): Pod[] {
  const { store } = cluster;
  let entry = cache.get(store);
  if (!entry || entry.revision !== store.revision) {
    entry = { revision: store.revision, byNode: indexByNode(store) };
    cache.set(store, entry);
  }
  const names = entry.byNode.get(nodeName) ?? [];
  const pods: Pod[] = [];
  for (let i = 0; i < names.length; i += 2) {
    const pod = store.get<Pod>(R.pods, names[i], names[i + 1] as string);
    if (pod) pods.push(pod);
  }
  return pods;
}
