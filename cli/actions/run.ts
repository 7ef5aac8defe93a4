import { randomUUID } from 'node:crypto';
import { KubeConfig } from '@kubernetes/client-node';
import type { Mode } from '../../src/engine/types.ts';
import { paramsFromPairs } from '../../src/params/merge.ts';
import type { RunRecord } from '../../src/store/types.ts';
import type { Trigger } from '../../src/triggers/types.ts';
import { closeLeftRuns } from '../../src/worker/left-behind.ts';
import { clusterConnector } from '../cluster-connector.ts';
import { confirmPlan, terminalAsk } from '../confirm-plan.ts';
import type { OutputFormat } from '../format/output.ts';
import { localConfig, localUser, withCluster } from '../local-app.ts';
import { runLocally } from '../local-run.ts';
import { leftBehindLine } from '../local-state.ts';
import { LOCAL_WORKER } from '../state-lock.ts';
import { openState } from '../state-option.ts';
import { stopOnInterrupt } from '../stop-on-interrupt.ts';

export interface RunOptions {
  sim?: string[];
  kubeconfig?: string;
  context?: string;
  cluster?: string;
  config?: string;
  ciliumNamespace?: string;
  set: string[];
  mode: Mode;
  output: OutputFormat;
  requestTimeout?: number;
  state: boolean;
}

/**
 * A cluster name the config accepts, from the kubeconfig context (the one named, else the
 * kubeconfig's current-context), whose name may be an ARN.
 */
function clusterNameOf(path: string | undefined, context: string | undefined): string {
  const kubeConfig = new KubeConfig();
  if (!context) {
    try {
      if (path) kubeConfig.loadFromFile(path);
      else kubeConfig.loadFromDefault();
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
  // --context alone means the default kubeconfig, as with kubectl.
  const kubeconfig = options.kubeconfig ?? (options.context ? '' : undefined);
  const chosen = [options.sim, kubeconfig, options.cluster].filter((o) => o !== undefined).length;
  if (chosen !== 1)
    throw new Error(
      'choose one cluster: --sim <scenario>, --kubeconfig <path> [--context <name>], --context <name> or --cluster <name>',
    );
  const config = await localConfig(options.config);
  const namespace = options.ciliumNamespace ? { ciliumNamespace: options.ciliumNamespace } : {};
  if (options.sim)
    return {
      config: withCluster(config, { name: 'sim', sim: { scenarios: options.sim }, ...namespace }),
      cluster: 'sim',
    };
  if (kubeconfig !== undefined) {
    const name = clusterNameOf(options.kubeconfig, options.context);
    const ref = {
      ...(options.kubeconfig ? { path: options.kubeconfig } : {}),
      ...(options.context ? { context: options.context } : {}),
    };
    return { config: withCluster(config, { name, kubeconfig: ref, ...namespace }), cluster: name };
  }
  const cluster = options.cluster as string;
  if (!config)
    throw new Error(
      `--cluster ${cluster} needs a config file: pass --config, set RESPONDER_CONFIG, or copy responder.config.example.yaml to responder.config.yaml`,
    );
  const configured = config.clusters.find((c) => c.name === cluster);
  if (!configured)
    throw new Error(
      `no cluster "${cluster}" in the config; known: ${config.clusters.map((c) => c.name).join(', ')}`,
    );
  if (!options.ciliumNamespace) return { config, cluster };
  return { config: withCluster(config, { ...configured, ...namespace }), cluster };
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
    params: paramsFromPairs(options.set),
    actor: localUser(),
  };
  const clusters = clusterConnector(
    options.requestTimeout ? { requestTimeoutMs: options.requestTimeout * 1000 } : {},
  );
  const state = await openState(options);
  // Ctrl-C: this invocation's runs end interrupted (the writes they journaled listed), their
  // leases released, so the next run starts at once instead of finding the pair "in progress".
  const uninstall = stopOnInterrupt(async () => {
    const ours = (record: RunRecord) => record.deliveryKey === trigger.deliveryKey;
    const now = () => new Date();
    const stopped = await closeLeftRuns(
      { store: state.store, now },
      ours,
      `stopped by Ctrl-C (${LOCAL_WORKER})`,
    );
    for (const record of stopped) process.stderr.write(`${leftBehindLine(record)}\n`);
    await clusters.close();
    await state.close();
  });
  try {
    const context = { config, store: state.store, clusters, output: options.output };
    const planned = await runLocally(trigger, config, state.store, context);
    let exitCode = planned.exitCode;
    if (options.mode === 'approve') {
      const ask = terminalAsk();
      for (const report of planned.reports.filter((r) => r.verdict === 'needs-approval')) {
        const decision = await confirmPlan(report, ask, context);
        process.stderr.write(`${report.runbook}: ${decision.message}\n`);
        if (decision.output) exitCode = decision.output.exitCode;
      }
    }
    setExitCode(exitCode);
  } finally {
    uninstall();
    await clusters.close();
    await state.close();
  }
}
