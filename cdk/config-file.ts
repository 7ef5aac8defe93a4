import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { ConfigError, type ConfigProblem } from '../src/config/load.ts';
import type { ResponderConfig } from '../src/config/schema.ts';
import { stackRegion } from './access-entries.ts';
import { awsNameProblems } from './aws-limits.ts';

/**
 * The config the stack is built from: the `config` context (`cdk synth -c config=prod.yaml`), else
 * $RESPONDER_CONFIG, else responder.config.yaml. Without one, synth stops, unless the `example`
 * context asks for the shipped example (`-c example=true`: a template to look at, not to deploy).
 */
export function configFile(
  context: { config?: unknown; example?: unknown },
  env: NodeJS.ProcessEnv = process.env,
  exists: (path: string) => boolean = existsSync,
): { path: string; example: boolean } {
  const named = typeof context.config === 'string' ? context.config : env.RESPONDER_CONFIG;
  if (named) return { path: resolve(named), example: false };
  if (exists('responder.config.yaml')) return { path: resolve('responder.config.yaml'), example: false };
  if (String(context.example) === 'true')
    return { path: resolve('responder.config.example.yaml'), example: true };
  throw new ConfigError(
    'no responder.config.yaml: copy responder.config.example.yaml to it and name your EKS clusters (or pass -c config=<file>; -c example=true synthesizes the example as is)',
  );
}

/**
 * What a config valid for the CLI may still not deploy, at the field to change (the file's line is
 * added by the loader):
 * - a `sim` or `kubeconfig` cluster: the deployed functions reach clusters through `eks` only;
 * - two same-account EKS clusters outside the stack's region whose names differ only by dashes or
 *   underscores: the stack holding that region's access entries would give both one logical id;
 * - a name the stack takes from the config that AWS would refuse (aws-limits.ts).
 */
export function deployProblems(config: ResponderConfig): ConfigProblem[] {
  const unreachable = config.clusters.flatMap((cluster, index) => {
    const kind = cluster.sim ? 'sim' : cluster.kubeconfig ? 'kubeconfig' : undefined;
    if (!kind) return [];
    return [
      {
        path: ['clusters', index, kind],
        message: `cluster "${cluster.name}" uses ${kind}, which the deployed functions cannot reach: give it eks: { name, region } (and roleArn for another account), or leave it out of the deployed config`,
      },
    ];
  });
  const ids = new Map<string, string>();
  const home = stackRegion(config);
  const collisions = config.clusters.flatMap((cluster, index) => {
    if (!cluster.eks || cluster.eks.roleArn || cluster.eks.region === home) return [];
    const { name, region } = cluster.eks;
    const key = `${region}|${name.replace(/[^A-Za-z0-9]/g, '')}`;
    const first = ids.get(key);
    if (first === undefined || first === name) {
      ids.set(key, name);
      return [];
    }
    return [
      {
        path: ['clusters', index, 'eks', 'name'],
        message: `EKS clusters ${first} and ${name} in ${region} differ only by dashes or underscores, so their access entries would share one CloudFormation id in the stack for ${region}: set deploy.region to ${region}, where the responder's own stack keeps them apart`,
      },
    ];
  });
  return [...unreachable, ...collisions, ...awsNameProblems(config)];
}
