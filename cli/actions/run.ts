import { randomUUID } from 'node:crypto';
import { KubeConfig } from '@kubernetes/client-node';
import type { Mode } from '../../src/engine/types.ts';
import type { Trigger } from '../../src/triggers/types.ts';
import { localConfig, localUser, withCluster } from '../local-app.ts';
import { runLocally } from '../local-run.ts';
import { openState } from '../state-option.ts';

export interface RunOptions {
  sim?: string[];
  kubeconfig?: string;
  context?: string;
  cluster?: string;
  config?: string;
  mode: Mode;
  json?: boolean;
  state: boolean;
}

/**
 * A cluster name the config accepts, from the kubeconfig context (the one named, else the file's
 * current-context), whose name may be an ARN.
 */
function clusterNameOf(path: string, context: string | undefined): string {
  const kubeConfig = new KubeConfig();
  if (!context) {
    try {
      kubeConfig.loadFromFile(path);
    } catch {
      // Connecting reports an unreadable file with its reason; the name only labels the run.
    }
  }
  const name = (context || kubeConfig.getCurrentContext() || 'kubeconfig')
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return name || 'kubeconfig';
}

/** The config with the cluster the options name, and that cluster's name. */
async function target(options: RunOptions) {
  const chosen = [options.sim, options.kubeconfig, options.cluster].filter((o) => o !== undefined).length;
  if (chosen !== 1)
    throw new Error('choose one cluster: --sim <scenario>, --kubeconfig <path> or --cluster <name>');
  const config = await localConfig(options.config);
  if (options.sim)
    return { config: withCluster(config, { name: 'sim', sim: { scenarios: options.sim } }), cluster: 'sim' };
  if (options.kubeconfig) {
    const name = clusterNameOf(options.kubeconfig, options.context);
    const kubeconfig = { path: options.kubeconfig, ...(options.context ? { context: options.context } : {}) };
    return { config: withCluster(config, { name, kubeconfig }), cluster: name };
  }
  const cluster = options.cluster as string;
  if (!config)
    throw new Error(
      `--cluster ${cluster} needs a config file: pass --config or create responder.config.yaml`,
    );
  if (!config.clusters.some((c) => c.name === cluster))
    throw new Error(
      `no cluster "${cluster}" in the config; known: ${config.clusters.map((c) => c.name).join(', ')}`,
    );
  return { config, cluster };
}

/** `responder run`'s work, loaded only when it runs. */
export async function runAction(runbook: string, options: RunOptions, setExitCode: (code: number) => void) {
  const { config, cluster } = await target(options);
  const trigger: Trigger = {
    source: 'cli',
    receivedAt: new Date().toISOString(),
    deliveryKey: `cli:${randomUUID()}`,
    alerts: [],
    cluster,
    runbook,
    mode: options.mode,
    actor: localUser(),
  };
  const state = await openState(options);
  try {
    const { exitCode } = await runLocally(trigger, config, state.store, { json: options.json ?? false });
    setExitCode(exitCode);
  } finally {
    await state.close();
  }
}
