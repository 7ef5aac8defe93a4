import { R, type SimCluster } from '../../cluster.ts';
import type { KubeObject, Pod } from '../../objects.ts';
import type { Store, StoreEvent } from '../../store.ts';

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

const indexes = new WeakMap<Store, ByNode>();

function place(byNode: ByNode, node: string, namespace: string, name: string): void {
  const names = byNode.get(node);
  if (!names) byNode.set(node, [namespace, name]);
  else if (indexOf(names, namespace, name) < 0) names.push(namespace, name);
}

function unplace(byNode: ByNode, node: string, namespace: string, name: string): void {
  const names = byNode.get(node);
  const at = names ? indexOf(names, namespace, name) : -1;
  if (at >= 0) names?.splice(at, 2);
}

function indexOf(names: string[], namespace: string, name: string): number {
  for (let i = 0; i < names.length; i += 2) if (names[i] === namespace && names[i + 1] === name) return i;
  return -1;
}

/**
 * Follows the store's pod events. A pod's node is set once (spec.nodeName cannot change once
 * bound), so an added or modified pod with a node is placed there and a deleted one leaves it.
 */
function follow(byNode: ByNode) {
  return ({ type, resource, object }: StoreEvent) => {
    if (resource !== R.pods) return;
    const [node, namespace, name] = placeOf(object);
    if (!node) return;
    if (type === 'DELETED') unplace(byNode, node, namespace, name);
    else place(byNode, node, namespace, name);
  };
}

/**
 * The store's pods by node, made once per store by one pass over it (reading the compact rows'
 * values, not building the pods) and kept up to date from its events. Made when the simulator
 * starts serving: made at the first exec instead, the pass over a 100,000-node cluster's 3.3
 * million pods held the event loop long enough for the fan-out's first execs to time out.
 */
export function indexPodsByNode(store: Store): ByNode {
  let byNode = indexes.get(store);
  if (byNode) return byNode;
  byNode = new Map();
  let after: string | undefined;
  do {
    const page = store.listReads(R.pods, { limit: PAGE, ...(after === undefined ? {} : { after }) });
    for (const item of page.items) {
      const [node, namespace, name] = item.derived(placeOf);
      if (!node) continue;
      // A pass over the store meets each pod once.
      const names = byNode.get(node);
      if (names) names.push(namespace, name);
      else byNode.set(node, [namespace, name]);
    }
    after = page.nextKey;
  } while (after !== undefined);
  store.on('event', follow(byNode));
  indexes.set(store, byNode);
  return byNode;
}

/**
 * The pods bound to a node, built from the store when asked for, so a fan-out over thousands of
 * agents does not rescan hundreds of thousands of pods each time and the index of a 100,000-node
 * cluster holds names, not the 3 million pods the compact store keeps as rows.
 */
export function podsOnNode(cluster: SimCluster, nodeName: string): Pod[] {
  const { store } = cluster;
  const names = indexPodsByNode(store).get(nodeName) ?? [];
  const pods: Pod[] = [];
  for (let i = 0; i < names.length; i += 2) {
    const pod = store.get<Pod>(R.pods, names[i], names[i + 1] as string);
    if (pod) pods.push(pod);
  }
  return pods;
}
