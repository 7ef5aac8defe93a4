import { randomUUID } from 'node:crypto';
import { KubeConfig } from '@kubernetes/client-node';
import { Command, InvalidArgumentError, Option } from 'commander';
import { RUNBOOK_IDS } from '../../runbooks/catalog.ts';
import type { Mode } from '../../src/engine/types.ts';
import type { Trigger } from '../../src/triggers/types.ts';
import { localConfig, localUser, withCluster } from '../local-app.ts';
import { runLocally } from '../local-run.ts';
import { openState, STATE_HELP } from '../state-option.ts';
import { parseScenarios } from './sim.ts';

interface RunOptions {
  sim?: string[];
  kubeconfig?: string;
  context?: string;
  cluster?: string;
  config?: string;
  mode: Mode;
  json?: boolean;
  state: boolean;
}

function runbookNamed(name: string): string {
  if (name === 'all' || (RUNBOOK_IDS as readonly string[]).includes(name)) return name;
  throw new InvalidArgumentError(`unknown runbook "${name}"; known runbooks: ${RUNBOOK_IDS.join(', ')}`);
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

/**
 * `responder run`: a runbook (or all) against one cluster, admitted like every other source: the
 * config's limits and exclusions, the lease, the brake (shared with earlier runs through the
 * local state) and an audit record (`responder history`). Exit 0 healthy/remediated, 1 problems
 * remain, 2 failed.
 */
export function runCommand(setExitCode: (code: number) => void): Command {
  return new Command('run')
    .description('run a runbook (or all) against a cluster; dry-run unless --mode auto')
    .argument('<runbook>', `a runbook id or "all" (${RUNBOOK_IDS.join(', ')})`, runbookNamed)
    .option('--sim <scenario>', 'an in-process simulated cluster with these scenarios', parseScenarios)
    .option('--kubeconfig <path>', 'a kubeconfig file')
    .option('--context <name>', 'the kubeconfig context (default: its current-context)')
    .option('--cluster <name>', 'a cluster from the config file')
    .option('--config <path>', 'the responder config (default: $RESPONDER_CONFIG or responder.config.yaml)')
    .addOption(
      new Option('--mode <mode>', 'dry-run plans only; auto acts within limits')
        .choices(['dry-run', 'auto'])
        .default('dry-run'),
    )
    .option('--json', 'print the report(s) as JSON')
    .option('--no-state', STATE_HELP)
    .action(async (runbook: string, options: RunOptions) => {
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
    });
}
