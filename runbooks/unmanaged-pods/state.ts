import type { DoneAction, StepContext } from '../../sdk/index.ts';
import type { UnmanagedPodsParams } from './params.ts';
import { type Scan, scanCluster, type UnmanagedPod } from './scan.ts';

/** What the steps of one run hand each other. */
export interface UnmanagedPodsState {
  /** The run's first look at the cluster, taken once. */
  firstScan?: Promise<Scan>;
  /** What the restart step handed to the actuator; empty when it did not run. */
  restarts: readonly Restart[];
}

export function newState(): UnmanagedPodsState {
  return { restarts: [] };
}

type Ctx = StepContext<UnmanagedPodsParams, UnmanagedPodsState>;

/**
 * The run's first look at the cluster, taken once: the operator-watcher step needs it to judge
 * the selector, the find step reports it, the restart step acts on it.
 */
export function firstScan(ctx: Ctx): Promise<Scan> {
  ctx.state.firstScan ??= scanCluster(ctx);
  return ctx.state.firstScan;
}

/** One pod the restart step handed to the actuator, and what the actuator did. */
export interface Restart {
  pod: UnmanagedPod;
  result: DoneAction;
}

export function saveRestarts(ctx: Ctx, restarts: readonly Restart[]): void {
  ctx.state.restarts = restarts;
}

/** Empty when the restart step did not run. */
export function savedRestarts(ctx: Ctx): readonly Restart[] {
  return ctx.state.restarts;
}
