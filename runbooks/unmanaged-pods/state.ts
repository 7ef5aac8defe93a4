import type { DoneAction, StepContext } from '../../src/engine/types.ts';
import type { UnmanagedPodsParams } from './params.ts';
import { type Scan, scanCluster, type UnmanagedPod } from './scan.ts';

// What the steps of one run hand each other through `ctx.state`, behind typed accessors.

type Ctx = StepContext<UnmanagedPodsParams>;

const FIRST_SCAN = 'unmanaged-pods/first-scan';
const RESTARTS = 'unmanaged-pods/restarts';

/**
 * The run's first look at the cluster, taken once: the operator-watcher step needs it to judge
 * the selector, the find step reports it, the restart step acts on it.
 */
export function firstScan(ctx: Ctx): Promise<Scan> {
  let scan = ctx.state.get(FIRST_SCAN) as Promise<Scan> | undefined;
  if (!scan) {
    scan = scanCluster(ctx);
    ctx.state.set(FIRST_SCAN, scan);
  }
  return scan;
}

/** One pod the restart step handed to the actuator, and what the actuator did. */
export interface Restart {
  pod: UnmanagedPod;
  result: DoneAction;
}

export function saveRestarts(ctx: Ctx, restarts: readonly Restart[]): void {
  ctx.state.set(RESTARTS, restarts);
}

/** Empty when the restart step did not run. */
export function savedRestarts(ctx: Ctx): readonly Restart[] {
  return (ctx.state.get(RESTARTS) as readonly Restart[] | undefined) ?? [];
}
