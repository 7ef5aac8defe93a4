import { Stack, Token } from 'aws-cdk-lib';
import { CfnAccessEntry } from 'aws-cdk-lib/aws-eks';
import type { Construct } from 'constructs';
import { ConfigError } from '../src/config/load.ts';
import type { ResponderConfig } from '../src/config/schema.ts';
import { RESPONDER_GROUP } from './rbac.ts';

/** A same-account EKS cluster: reached with the worker's own role, so it needs an access entry. */
export interface SameAccountCluster {
  /** The config's name for it. */
  name: string;
  eks: { name: string; region: string };
}

/** A scope in `region` (a stack there), for access entries of clusters outside the main stack's region. */
export type RegionScope = (region: string) => Construct;

export function sameAccountClusters(config: ResponderConfig): SameAccountCluster[] {
  return config.clusters.flatMap((cluster) =>
    cluster.eks && !cluster.eks.roleArn ? [{ name: cluster.name, eks: cluster.eks }] : [],
  );
}

/**
 * The region the stack deploys to: `deploy.region`, else the region of the first same-account
 * cluster (every access entry then sits in the stack itself when they share one), else none (the
 * CLI's region).
 */
export function stackRegion(config: ResponderConfig): string | undefined {
  return config.deploy?.region ?? sameAccountClusters(config)[0]?.eks.region;
}

/**
 * One EKS access entry per same-account cluster, in the cluster's own region: an access entry can
 * only be created where its cluster is. In `scope`'s stack when the regions match, else in the
 * scope `elsewhere` gives for that region; without one, synth stops with the cluster and both regions.
 */
export function addAccessEntries(
  scope: Construct,
  clusters: readonly SameAccountCluster[],
  principalArn: string,
  elsewhere?: RegionScope,
): void {
  const here = Stack.of(scope).region;
  for (const cluster of clusters) {
    const { region } = cluster.eks;
    const target = region === here ? scope : elsewhere?.(region);
    if (!target) {
      const stack = Token.isUnresolved(here)
        ? 'the stack has no region (env-agnostic)'
        : `the stack deploys to ${here}`;
      throw new ConfigError(
        `cluster "${cluster.name}": EKS cluster ${cluster.eks.name} is in ${region} but ${stack}; its access entry must be created in ${region}: set deploy.region to ${region}, or deploy through cdk/app.ts, which adds a stack in ${region} for it`,
      );
    }
    new CfnAccessEntry(target, `AccessEntry-${cluster.eks.name}`, {
      clusterName: cluster.eks.name,
      principalArn,
      kubernetesGroups: [RESPONDER_GROUP],
      type: 'STANDARD',
    });
  }
}
