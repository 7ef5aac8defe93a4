import type { SimCluster } from '../cluster.ts';
import { R } from '../cluster.ts';
import { budgetCounts, budgetStatus, type PdbStatus, type PodDisruptionBudget } from '../pdb.ts';
import type { StoreEvent } from '../store.ts';
import type { ControllerContext } from './context.ts';

/** What decides a budget: its pods and the scale of their controllers. */
const AFFECTS_BUDGETS = new Set(['pods', 'poddisruptionbudgets', 'replicasets', 'deployments']);

function sameStatus(a: PdbStatus | undefined, b: PdbStatus): boolean {
  const [ca, cb] = [a?.conditions?.[0], b.conditions[0]];
  return (
    a !== undefined &&
    a.currentHealthy === b.currentHealthy &&
    a.desiredHealthy === b.desiredHealthy &&
    a.expectedPods === b.expectedPods &&
    a.disruptionsAllowed === b.disruptionsAllowed &&
    a.observedGeneration === b.observedGeneration &&
    ca?.status === cb?.status &&
    ca?.reason === cb?.reason &&
    ca?.message === cb?.message
  );
}

function syncNamespace(cluster: SimCluster, namespace: string): void {
  const { store } = cluster;
  const budgets = store.list(R.poddisruptionbudgets, { namespace }).items as PodDisruptionBudget[];
  for (const pdb of budgets) {
    const status = budgetStatus(pdb, budgetCounts(cluster, pdb), store.timestamp());
    if (sameStatus(pdb.status, status)) continue;
    store.update<PodDisruptionBudget>(R.poddisruptionbudgets, namespace, pdb.metadata.name, (current) => ({
      ...current,
      status,
    }));
  }
}

/**
 * The disruption controller: keeps each PodDisruptionBudget's status (currentHealthy,
 * desiredHealthy, expectedPods, disruptionsAllowed, observedGeneration, the DisruptionAllowed
 * condition) right as pods come, go and change readiness. One sync per namespace per burst.
 */
export function budgetStatusController(ctx: ControllerContext): (event: StoreEvent) => void {
  const pending = new Set<string>();
  return (event) => {
    const namespace = event.object.metadata.namespace;
    if (!namespace || !AFFECTS_BUDGETS.has(event.resource.plural) || pending.has(namespace)) return;
    pending.add(namespace);
    ctx.scheduler.soon(() => {
      pending.delete(namespace);
      syncNamespace(ctx.cluster, namespace);
    });
  };
}
