import type { BrakeState, RunRecord } from '../store/types.ts';
import { leaseKeyOf } from '../worker/run-job.ts';
import type { App } from './app.ts';

/** A runbook on a cluster: its last run, and who holds its lease (a run going on) if anyone. */
export interface RunbookOnCluster {
  runbook: string;
  lastRun?: RunRecord;
  lease?: { owner: string; expiresAt: string };
}

export interface ClusterOverview {
  cluster: string;
  brake: BrakeState;
  runbooks: RunbookOnCluster[];
}

/** Pages read looking for a runbook's last run: its filter reads a bounded part of the index each. */
const PAGES_PER_RUNBOOK = 3;

async function lastRun(app: App, cluster: string, runbook: string): Promise<RunRecord | undefined> {
  let after: string | undefined;
  for (let page = 0; page < PAGES_PER_RUNBOOK; page++) {
    const found = await app.ports.store.runs.page({
      cluster,
      runbook,
      limit: 1,
      ...(after ? { after } : {}),
    });
    if (found.runs[0] || found.next === undefined) return found.runs[0];
    after = found.next;
  }
  return undefined;
}

/**
 * Each configured cluster as an on-call person checks it: the brake (writes counted in the
 * window, engaged or not, when it frees), and per runbook the last run's verdict and any lease held.
 * Every read is a Query or a Get.
 */
export async function clusterOverview(app: App): Promise<ClusterOverview[]> {
  const { config, store, runbookIds, now } = app.ports;
  const { maxWrites, windowMinutes } = config.limits.brake;
  return Promise.all(
    config.clusters.map(async ({ name: cluster }) => ({
      cluster,
      brake: await store.brake.state(cluster, maxWrites, windowMinutes * 60, now()),
      runbooks: await Promise.all(
        runbookIds.map(async (runbook) => {
          const [last, lease] = await Promise.all([
            lastRun(app, cluster, runbook),
            store.leases.holder(leaseKeyOf({ cluster, runbook }), now()),
          ]);
          return { runbook, ...(last ? { lastRun: last } : {}), ...(lease ? { lease } : {}) };
        }),
      ),
    })),
  );
}
