import type { SimCluster } from '../cluster.ts';
import type { Pod } from '../objects.ts';
import type { StoreEvent } from '../store.ts';
import type { ControllerContext } from './context.ts';
import { budgetStatusController } from './disruption.ts';
import { stopPod } from './pod-lifecycle.ts';
import { Scheduler } from './scheduler.ts';
import { replaceDeletedPod } from './workload-controllers.ts';

export interface ControllerOptions {
  /** Delay before a new pod's CiliumEndpoint appears (its agent must be ready). Default 50 ms. */
  cepDelayMs?: number;
  /** Delay before a new pod turns Ready. Default 100 ms. */
  readyDelayMs?: number;
  /** Where a controller's failure goes; default stderr. */
  onError?: (error: unknown) => void;
}

/**
 * Starts the simulated controllers on the cluster's store events: ReplicaSets and DaemonSets
 * replace deleted (or evicted) pods, the agent writes CEPs for new pods, the garbage collector
 * removes a deleted pod's CEP, and the disruption controller keeps budget statuses. Returns stop.
 */
export function startControllers(cluster: SimCluster, options: ControllerOptions = {}): () => void {
  const scheduler = new Scheduler(
    options.onError ?? ((error) => console.error('sim controller failed:', error)),
  );
  const ctx: ControllerContext = {
    cluster,
    scheduler,
    cepDelayMs: options.cepDelayMs ?? 50,
    readyDelayMs: options.readyDelayMs ?? 100,
  };
  const budgets = budgetStatusController(ctx);
  const listener = (event: StoreEvent) => {
    if (event.resource.plural === 'pods' && event.type === 'DELETED') {
      const pod = event.object as Pod;
      scheduler.soon(() => {
        stopPod(ctx, pod);
        replaceDeletedPod(ctx, pod);
      });
    }
    budgets(event);
  };
  cluster.store.on('event', listener);
  return () => {
    cluster.store.off('event', listener);
    scheduler.stop();
  };
}
