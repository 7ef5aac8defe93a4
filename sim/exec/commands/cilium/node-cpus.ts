import { R, type SimCluster } from '../../../cluster.ts';
import type { KubeObject } from '../../../objects.ts';

/** The node's CPU count (Node status.capacity.cpu), which sizes the monitor's per-CPU buffers; 2 if unset. */
export function nodeCpus(cluster: SimCluster, nodeName: string): number {
  const node = cluster.store.get<KubeObject & { status?: { capacity?: Record<string, string> } }>(
    R.nodes,
    undefined,
    nodeName,
  );
  const cpus = Number.parseInt(node?.status?.capacity?.cpu ?? '', 10);
  return Number.isFinite(cpus) && cpus > 0 ? cpus : 2;
}
