import type { ClusterRef } from '../cluster/types.ts';
import type { ClusterConfig } from './schema.ts';

/** How to reach a configured cluster. A `sim` cluster has no ref: it is started by whoever runs it. */
export function clusterRef(cluster: ClusterConfig): ClusterRef {
  const namespace = { ciliumNamespace: cluster.ciliumNamespace };
  if (cluster.eks) return { kind: 'eks', ...cluster.eks, ...namespace };
  if (cluster.kubeconfig)
    return {
      kind: 'kubeconfig',
      ...cluster.kubeconfig,
      ...namespace,
      ...(cluster.aws ? { aws: cluster.aws } : {}),
    };
  throw new Error(
    `cluster ${cluster.name} is a simulator: run it with --sim ${cluster.sim?.scenarios.join(',')}`,
  );
}
