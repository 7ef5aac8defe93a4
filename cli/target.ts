import { type Sim, startSim } from '../sim/index.ts';
import { connect } from '../src/cluster/connect.ts';
import type { ClusterAccess, ClusterRef } from '../src/cluster/types.ts';
import { clusterRef } from '../src/config/cluster-ref.ts';
import { loadConfig } from '../src/config/load.ts';

export interface TargetOptions {
  sim?: string[];
  kubeconfig?: string;
  context?: string;
  cluster?: string;
  config: string;
}

export interface Target {
  access: ClusterAccess;
  /** Shuts down what the target started (the in-process simulator). */
  close(): Promise<void>;
}

async function simTarget(scenarios: string[]): Promise<Target> {
  const sim: Sim = await startSim({ scenarios });
  const access = await connect({ kind: 'sim', kubeconfig: sim.kubeconfig() });
  return { access, close: () => sim.close() };
}

/** Resolves exactly one of --sim, --kubeconfig or --cluster into a connected cluster. */
export async function openTarget(options: TargetOptions): Promise<Target> {
  const chosen = [options.sim, options.kubeconfig, options.cluster].filter((o) => o !== undefined).length;
  if (chosen !== 1)
    throw new Error('choose one cluster: --sim <scenario>, --kubeconfig <path> or --cluster <name>');
  if (options.sim) return simTarget(options.sim);
  if (options.kubeconfig) {
    const ref: ClusterRef = {
      kind: 'kubeconfig',
      path: options.kubeconfig,
      ...(options.context ? { context: options.context } : {}),
    };
    return { access: await connect(ref), close: async () => {} };
  }
  const config = await loadConfig(options.config);
  const cluster = config.clusters.find((c) => c.name === options.cluster);
  if (!cluster) {
    throw new Error(
      `no cluster "${options.cluster}" in ${options.config}; known: ${config.clusters.map((c) => c.name).join(', ')}`,
    );
  }
  if (cluster.sim) return simTarget(cluster.sim.scenarios);
  return { access: await connect(clusterRef(cluster)), close: async () => {} };
}
