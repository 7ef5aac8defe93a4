import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import type { Mode } from '../../src/engine/types.ts';
import { paramsFromPairs } from '../../src/params/merge.ts';
import type { RunRecord, StateStore } from '../../src/store/types.ts';
import type { Trigger } from '../../src/triggers/types.ts';
import { closeLeftRuns } from '../../src/worker/left-behind.ts';
import { clusterConnector } from '../cluster-connector.ts';
import { type ConfirmContext, confirmPlan, terminalAsk } from '../confirm-plan.ts';
import { formatRunOutput, formatRunTables, type OutputFormat, type RunOutput } from '../format/output.ts';
import { localSetup, localUser, withCluster } from '../local-app.ts';
import { runLocally } from '../local-run.ts';
import { leftBehindLine } from '../local-state.ts';
import { configHint } from '../project-file.ts';
import { scenarioFiles } from '../scenario-files.ts';
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

/**
 * The kubeconfig kubectl would use with no flags: $KUBECONFIG, else ~/.kube/config if it exists.
 * `''` means that default; undefined means there is none.
 */
function defaultKubeconfig(): '' | undefined {
  if (process.env.KUBECONFIG) return '';
  return existsSync(join(homedir(), '.kube', 'config')) ? '' : undefined;
}

const CHOOSE_ONE =
  'choose one cluster: --sim <scenario>, --kubeconfig <path> [--context <name>], --context <name> or --cluster <name>';

/** The config with the cluster the options name, and that cluster's name. */
async function target(options: RunOptions, store: StateStore) {
  // --context alone means the default kubeconfig, as with kubectl.
  const named = options.kubeconfig ?? (options.context ? '' : undefined);
  const chosen = [options.sim, named, options.cluster].filter((o) => o !== undefined).length;
  if (chosen > 1) throw new Error(CHOOSE_ONE);
  // Nothing named: the current context of $KUBECONFIG (or ~/.kube/config), as kubectl does.
  const kubeconfig = chosen === 0 ? defaultKubeconfig() : named;
  if (chosen === 0 && kubeconfig === undefined)
    throw new Error(`${CHOOSE_ONE} (no $KUBECONFIG and no ~/.kube/config to default to)`);
  const { config, runbooks } = await localSetup(options.config);
  const namespace = options.ciliumNamespace ? { ciliumNamespace: options.ciliumNamespace } : {};
  if (options.sim)
    return {
      config: withCluster(config, { name: 'sim', sim: { scenarios: options.sim }, ...namespace }),
      cluster: 'sim',
      runbooks,
    };
  if (kubeconfig !== undefined) {
    const name = clusterNameOf(options.kubeconfig, options.context);
    const ref = {
      ...(options.kubeconfig ? { path: options.kubeconfig } : {}),
      ...(options.context ? { context: options.context } : {}),
    };
    return { config: withCluster(config, { name, kubeconfig: ref, ...namespace }), cluster: name, runbooks };
  }
  const cluster = options.cluster as string;
  if (!config)
    throw new Error(
      `--cluster ${cluster} needs a config file: pass --config, set RESPONDER_CONFIG, or ${configHint('responder.config.yaml')}`,
    );
  const configured = config.clusters.find((c) => c.name === cluster);
  if (!configured) throw new Error(await unknownCluster(cluster, config.clusters, store));
  if (!options.ciliumNamespace) return { config, cluster, runbooks };
  return { config: withCluster(config, { ...configured, ...namespace }), cluster, runbooks };
}

/** Which clusters there are: the config's, and those in the run history (reached with --kubeconfig or --sim). */
async function unknownCluster(cluster: string, configured: readonly { name: string }[], store: StateStore) {
  const known = configured.map((c) => c.name);
  const history = [...new Set((await store.runs.list({ limit: 200 })).map((run) => run.cluster))].filter(
    (name) => !known.includes(name),
  );
  const inHistory =
    history.length > 0
      ? `; in the run history (run with --kubeconfig/--context or --sim): ${history.join(', ')}`
      : '';
  return `no cluster "${cluster}" in the config; known: ${known.join(', ') || 'none'}${inHistory}`;
}

/** `responder run`'s work, loaded only when it runs. */
export async function runAction(runbook: string, options: RunOptions, setExitCode: (code: number) => void) {
  try {
    setExitCode(await run(runbook, options));
  } catch (error) {
    // A run that could not start still prints the one shape scripts read; the reason goes to stderr too.
    if (options.output !== 'table') {
      const message = error instanceof Error ? error.message : String(error);
      process.stdout.write(
        await formatRunOutput({ reports: [], errors: [{ runbook, message }] }, options.output),
      );
    }
    throw error;
  }
}

async function run(runbook: string, options: RunOptions): Promise<number> {
  // A team's scenario files become names the simulator knows.
  const sim = options.sim ? await scenarioFiles(options.sim) : undefined;
  const state = await openState(options);
  const clusters = clusterConnector({
    ...(options.requestTimeout ? { requestTimeoutMs: options.requestTimeout * 1000 } : {}),
    ...(sim ? { extraScenarios: sim.extra } : {}),
  });
  const deliveryKey = `cli:${randomUUID()}`;
  const ours = (record: RunRecord) => record.deliveryKey === deliveryKey;
  /** This invocation's runs still open (a job never started; a run that did not stop in time), closed. */
  const closeOurs = async (cause?: string) => {
    const closed = await closeLeftRuns({ store: state.store, now: () => new Date() }, ours, cause);
    for (const record of closed) process.stderr.write(`${leftBehindLine(record)}\n`);
  };
  // Ctrl-C stops the step under way: the run ends interrupted (the writes it journaled listed),
  // its lease given back, so the next run starts at once instead of finding the pair "in progress".
  const interrupt = stopOnInterrupt(async (graceMs) => {
    // Not the clusters: closing waits for the connections the step left open, and the process ends now.
    await closeOurs(`${interrupt.signal.reason.message}; its step did not stop within ${graceMs} ms`);
    await state.close();
  });
  try {
    const { config, cluster, runbooks } = await target(
      sim ? { ...options, sim: sim.names } : options,
      state.store,
    );
    if (runbook !== 'all' && !runbooks.ids.includes(runbook))
      throw new Error(`unknown runbook "${runbook}"; known runbooks: ${runbooks.ids.join(', ')}`);
    const trigger: Trigger = {
      source: 'cli',
      receivedAt: new Date().toISOString(),
      deliveryKey,
      alerts: [],
      cluster,
      runbook,
      mode: options.mode,
      params: paramsFromPairs(options.set),
      actor: localUser(),
    };
    const context = {
      config,
      store: state.store,
      clusters,
      output: options.output,
      runbooks,
      signal: interrupt.signal,
    };
    const exitCode =
      options.mode !== 'approve'
        ? (await runLocally(trigger, config, state.store, context)).exitCode
        : await runApproved(trigger, context);
    return interrupt.exitCode() ?? exitCode;
  } finally {
    if (interrupt.signal.aborted) await closeOurs();
    await clusters.close();
    await state.close();
    // Last: should closing hang after a Ctrl-C, the fallback still ends the process.
    interrupt.uninstall();
  }
}

/**
 * `--mode approve`: the plan, the question, and the confirmed plan applied. For scripts, the
 * reports of both runs come out as one -o json/yaml object at the end; a person reads the plan
 * (as tables, on stderr) before answering.
 */
async function runApproved(trigger: Trigger, context: ConfirmContext): Promise<number> {
  const table = context.output === 'table';
  const shown: RunOutput = { reports: [], errors: [] };
  const collect = (output: RunOutput) => {
    shown.reports.push(...output.reports);
    shown.errors.push(...output.errors);
    if (!table) process.stderr.write(formatRunTables(output));
    return table ? formatRunTables(output) : '';
  };
  const planned = await runLocally(trigger, context.config, context.store, { ...context, print: collect });
  let exitCode = planned.exitCode;
  const ask = terminalAsk();
  for (const report of planned.reports.filter((r) => r.verdict === 'needs-approval')) {
    const decision = await confirmPlan(report, ask, { ...context, print: collect });
    process.stderr.write(`${report.runbook}: ${decision.message}\n`);
    if (decision.output) exitCode = decision.output.exitCode;
  }
  if (!table) process.stdout.write(await formatRunOutput(shown, context.output));
  return exitCode;
}
