import type { ResponderConfig } from '../config/schema.ts';

export type AlertCluster = { cluster: string } | { problem: string };

const listed = (names: readonly string[]) => (names.length > 0 ? names.join(', ') : 'none');

/**
 * The config cluster a name from an alert stands for. An alert's `cluster` label or an alarm's
 * `ClusterName` dimension is the config's name, or the EKS cluster's own name (what Container
 * Insights and EKS metrics carry); for an alarm, an EKS name counts only in the alarm's region.
 * When none fits, the problem says which names were tried.
 */
export function alertCluster(name: string, config: ResponderConfig, region?: string): AlertCluster {
  const clusters = config.clusters;
  if (clusters.some((cluster) => cluster.name === name)) return { cluster: name };
  const eks = clusters.flatMap(({ name: cluster, eks }) =>
    eks && (!region || eks.region === region) ? [{ cluster, eksName: eks.name }] : [],
  );
  const byEksName = eks.find((entry) => entry.eksName === name);
  if (byEksName) return { cluster: byEksName.cluster };
  const where = region ? ` in ${region}` : '';
  return {
    problem: `cluster "${name}" is not in the config: tried its cluster names (${listed(clusters.map((c) => c.name))}) and its EKS cluster names${where} (${listed(eks.map((entry) => entry.eksName))})`,
  };
}
