/**
 * Test a runbook without a cloud: a simulated EKS + Cilium cluster (a real Kubernetes API over
 * HTTPS and WebSocket) built from scenarios, your own beside the built-in ones, and a run of your
 * runbook against it through the same engine and actuator as in production.
 *
 * @packageDocumentation
 */
import { KubeConfig } from '@kubernetes/client-node';
import { type Sim, startSim } from '../sim/index.ts';
import { clusterAccess } from '../src/cluster/access.ts';
import { runRunbook } from '../src/engine/run.ts';
import type { Limits, Mode, Report, Runbook } from '../src/engine/types.ts';
import { type ClusterSettings, type ScenarioDefinition, scenariosByName } from './scenario.ts';

// The SDK's types, which a run takes and returns (Runbook, Report, Mode, Limits...).
export type * from './index.ts';
export {
  type ClusterSettings,
  defineScenario,
  type KubeProxyReplacement,
  type ScenarioDefinition,
} from './scenario.ts';

/** What {@link startCluster} builds. */
export interface ClusterOptions {
  /**
   * Scenarios composed in order: built-in names (`healthy`, `unmanaged-pods`, `cgroup-private-ns`,
   * `host-identity-world`, `vxlan-blocked`, `all`) or your own from {@link defineScenario}.
   * @defaultValue `['healthy']`
   */
  readonly scenarios?: readonly (string | ScenarioDefinition)[];
  /** Settings over every scenario's own, e.g. `{ nodes: 6, ciliumVersion: '1.15.9' }`. */
  readonly options?: ClusterSettings;
}

/** What {@link TestCluster.run} takes. */
export interface RunOptions {
  /** How the run acts, as `responder run --mode` says. @defaultValue `dry-run` */
  readonly mode?: Mode;
  /** Raw params, validated by the runbook's schema as in production. */
  readonly params?: unknown;
  /** The run's limits, over the defaults. @defaultValue the responder's defaults (10 evictions, 1 agent restart per run) */
  readonly limits?: Partial<Limits>;
}

/** A simulated cluster serving its scenarios; close it when the test is done. */
export interface TestCluster {
  /** Kubeconfig YAML (context `sim`, admin token), for kubectl or a CLI run. */
  readonly kubeconfig: string;
  /** Runs a runbook against this cluster and returns its report. */
  run<P, S>(runbook: Runbook<P, S>, options?: RunOptions): Promise<Report>;
  /** Stops the simulator. */
  close(): Promise<void>;
}

/**
 * Builds a simulated cluster from scenarios and serves it on loopback.
 *
 * @example
 * ```ts
 * import { expect, test } from 'vitest';
 * import { startCluster } from 'cilium-responder/testing';
 * import runbook from '../runbooks/kube-proxy-coexistence/index.ts';
 * import { kubeProxyLeftBehind } from './scenarios.ts';
 *
 * test('finds kube-proxy beside the replacement', async () => {
 *   const cluster = await startCluster({ scenarios: [kubeProxyLeftBehind] });
 *   try {
 *     const report = await cluster.run(runbook);
 *     expect(report.verdict).toBe('degraded');
 *   } finally {
 *     await cluster.close();
 *   }
 * });
 * ```
 */
export async function startCluster(options: ClusterOptions = {}): Promise<TestCluster> {
  const scenarios = options.scenarios ?? ['healthy'];
  const sim: Sim = await startSim({
    scenarios: scenarios.map((scenario) => (typeof scenario === 'string' ? scenario : scenario.name)),
    extraScenarios: scenariosByName(scenarios.filter((s) => typeof s !== 'string')),
    ...(options.options ? { scenario: options.options } : {}),
  });
  const kc = new KubeConfig();
  kc.loadFromString(sim.kubeconfig());
  const access = clusterAccess(kc, { name: sim.cluster.name });
  return {
    kubeconfig: sim.kubeconfig(),
    run: (runbook, run = {}) =>
      runRunbook({
        runbook,
        access,
        mode: run.mode ?? 'dry-run',
        ...(run.params !== undefined ? { params: run.params } : {}),
        ...(run.limits ? { limits: run.limits } : {}),
      }),
    close: () => sim.close(),
  };
}
