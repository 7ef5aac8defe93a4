import type { DoneAction, StepContext } from '../../sdk/index.ts';
import type { UnmanagedPodsParams } from './params.ts';
import {
  type Scan,
  type ScanOrSoFar,
  type ScanSoFar,
  scanCluster,
  scanUntilPaused,
  type UnmanagedPod,
} from './scan.ts';

/**
 * What the steps of one run hand each other. Plain data: a run that goes on in its next
 * invocation keeps it in its checkpoint as JSON.
 */
export interface UnmanagedPodsState {
  /** The run's first look at the cluster, taken once. */
  firstScan?: Scan;
  /** Why that look failed: the steps after the first report it rather than look again. */
  scanFailed?: string;
  /** What the restart step handed to the actuator; empty when it did not run. */
  restarts: readonly Restart[];
  /** Uids of the pods the evicted pods' controllers had just before the evictions: not replacements. */
  before: readonly string[];
}

export function newState(): UnmanagedPodsState {
  return { restarts: [], before: [] };
}

type Ctx = StepContext<UnmanagedPodsParams, UnmanagedPodsState>;

/** The first look, or its failure, remembered for the steps after. */
async function remembered<T>(ctx: Ctx, look: () => Promise<T>): Promise<T> {
  if (ctx.state.scanFailed !== undefined) throw new Error(ctx.state.scanFailed);
  try {
    return await look();
  } catch (error) {
    ctx.state.scanFailed = error instanceof Error ? error.message : String(error);
    throw error;
  }
}

/**
 * The run's first look at the cluster, taken once: the operator-watcher step needs it to judge
 * the selector, the find step reports it, the restart step acts on it.
 */
export async function firstScan(ctx: Ctx): Promise<Scan> {
  ctx.state.firstScan ??= await remembered(ctx, () => scanCluster(ctx));
  return ctx.state.firstScan;
}

/**
 * The first look for the step that takes it: it stops starting namespaces once the invocation is
 * ending and hands back what it found so far (the step's `ctx.pause`), and goes on from what the
 * step saved in the run's earlier invocation.
 */
export async function firstScanOrPause(ctx: Ctx): Promise<ScanOrSoFar> {
  const taken = ctx.state.firstScan;
  if (taken) return { scan: taken };
  const from = ctx.saved as ScanSoFar | undefined;
  const result = await remembered(ctx, () =>
    scanUntilPaused(ctx, { ...(from ? { from } : {}), pausing: ctx.pausing }),
  );
  if (result.scan) ctx.state.firstScan = result.scan;
  return result;
}

/** One pod the restart step handed to the actuator, and what the actuator did. */
export interface Restart {
  pod: UnmanagedPod;
  result: DoneAction;
}

export function saveRestarts(ctx: Ctx, restarts: readonly Restart[], before: readonly string[]): void {
  ctx.state.restarts = restarts;
  ctx.state.before = before;
}

/** Empty when the restart step did not run. */
export function savedRestarts(ctx: Ctx): { restarts: readonly Restart[]; before: ReadonlySet<string> } {
  return { restarts: ctx.state.restarts, before: new Set(ctx.state.before) };
}
