import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { ConfigError } from '../src/config/load.ts';
import type { ResponderConfig } from '../src/config/schema.ts';

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
 * Clusters a Lambda function cannot reach: `sim` is the in-process simulator and `kubeconfig` a
 * file on this machine; in AWS the worker reaches a cluster through `eks` only.
 */
export function undeployableClusters(config: ResponderConfig): string[] {
  return config.clusters.flatMap((cluster) => {
    const kind = cluster.sim ? 'sim' : cluster.kubeconfig ? 'kubeconfig' : undefined;
    if (!kind) return [];
    return [
      `cluster "${cluster.name}" uses ${kind}, which the deployed functions cannot reach: give it eks: { name, region } (and roleArn for another account), or leave it out of the deployed config`,
    ];
  });
}
