import type { Sim } from '../sim/index.ts';
import type { ScenarioOptions } from '../sim/scenarios/index.ts';
import { connect } from '../src/cluster/connect.ts';
import type { ClusterAccess } from '../src/cluster/types.ts';
import { clusterRef } from '../src/config/cluster-ref.ts';
import type { ClusterConfig } from '../src/config/schema.ts';

export interface ClusterConnector {
  connect(cluster: ClusterConfig): Promise<ClusterAccess>;
  /** An admin kubeconfig for a `sim` cluster started here (what a person would run kubectl with). */
  simKubeconfig(cluster: string): string | undefined;
  close(): Promise<void>;
}

/**
 * Connects to configured clusters, anew for every run, as the Lambda worker does: what one run's
 * access read and kept (the agent pods, cilium-config, an EKS endpoint) is never what a later run
 * in a long-lived `responder serve` sees after the cluster changed. A `sim` cluster is started in
 * this process on first use, so a fresh clone's example config works with nothing else running;
 * it lives as long as the connector.
 */
export function clusterConnector(
  options: {
    requestTimeoutMs?: number;
    /** Options of every simulated cluster started here. */
    scenario?: ScenarioOptions;
  } = {},
): ClusterConnector {
  const timeout = options.requestTimeoutMs ? { requestTimeoutMs: options.requestTimeoutMs } : {};
  const starting = new Map<string, Promise<Sim>>();
  const sims = new Map<string, Sim>();
  function simFor(cluster: ClusterConfig, scenarios: string[]): Promise<Sim> {
    let sim = starting.get(cluster.name);
    if (!sim) {
      // Loaded here: a run on a real cluster never carries the simulator.
      sim = import('../sim/index.ts')
        .then(({ startSim }) =>
          startSim({ scenarios, ...(options.scenario ? { scenario: options.scenario } : {}) }),
        )
        .then((started) => {
          sims.set(cluster.name, started);
          return started;
        });
      starting.set(cluster.name, sim);
      // A sim that failed to start is not kept: the next job tries again.
      sim.catch(() => starting.delete(cluster.name));
    }
    return sim;
  }
  async function openSim(cluster: ClusterConfig, scenarios: string[]): Promise<ClusterAccess> {
    const sim = await simFor(cluster, scenarios);
    const access = await connect(
      { kind: 'sim', kubeconfig: sim.kubeconfig(), ciliumNamespace: cluster.ciliumNamespace },
      timeout,
    );
    return { ...access, name: cluster.name };
  }
  return {
    connect(cluster) {
      if (cluster.sim) return openSim(cluster, cluster.sim.scenarios);
      return connect(clusterRef(cluster), timeout);
    },
    simKubeconfig: (cluster) => sims.get(cluster)?.kubeconfig(),
    async close() {
      await Promise.all(
        [...starting.values()].map(async (sim) => (await sim.catch(() => undefined))?.close()),
      );
    },
  };
}
