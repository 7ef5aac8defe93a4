import type { SimCluster } from '../cluster.ts';
import type { Scheduler } from './scheduler.ts';

/** What every simulated controller works with. */
export interface ControllerContext {
  cluster: SimCluster;
  scheduler: Scheduler;
  /** How long after a pod starts its agent writes the CiliumEndpoint. */
  cepDelayMs: number;
  /** How long after a pod starts its readiness probe first passes. */
  readyDelayMs: number;
}

/** The store's clock, as a Date (events and agent logs need one). */
export function storeNow(cluster: SimCluster): Date {
  return new Date(cluster.store.timestamp());
}
