import { type Sim, startSim } from '../sim/index.ts';
import { connect } from '../src/cluster/connect.ts';
import type { ClusterAccess } from '../src/cluster/types.ts';
import { clusterRef } from '../src/config/cluster-ref.ts';
import type { ClusterConfig } from '../src/config/schema.ts';

export interface ClusterConnector {
  connect(cluster: ClusterConfig): Promise<ClusterAccess>;
  close(): Promise<void>;
}

/**
 * Connects to configured clusters, once each. A `sim` cluster is started in this process on
 * first use, so a fresh clone's example config works with nothing else running.
 */
export function clusterConnector(options: { requestTimeoutMs?: number } = {}): ClusterConnector {
  const connections = new Map<string, Promise<ClusterAccess>>();
  const sims: Sim[] = [];
  async function open(cluster: ClusterConfig): Promise<ClusterAccess> {
    if (!cluster.sim) return connect(clusterRef(cluster), options);
    const sim = await startSim({ scenarios: cluster.sim.scenarios });
    sims.push(sim);
    const access = await connect(
      {
        kind: 'sim',
        kubeconfig: sim.kubeconfig(),
        ciliumNamespace: cluster.ciliumNamespace,
      },
      options,
    );
    return { ...access, name: cluster.name };
  }
  return {
    connect(cluster) {
      let connection = connections.get(cluster.name);
      if (!connection) {
        connection = open(cluster);
        connections.set(cluster.name, connection);
        // A failed connection is not kept: the next job tries again.
        connection.catch(() => connections.delete(cluster.name));
      }
      return connection;
    },
    async close() {
      await Promise.all(sims.map((sim) => sim.close()));
    },
  };
}
