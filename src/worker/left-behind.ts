import { queuedRecord } from '../routing/admit.ts';
import { finishPair, pairKeyOf, releasePair } from '../routing/follow-up.ts';
import type { RunRecord, StateStore } from '../store/types.ts';
import { leaseKeyOf, markInterrupted } from './run-job.ts';

const OPEN: ReadonlySet<RunRecord['status']> = new Set(['queued', 'running']);

/** Why a queued run of a stopped process is closed: it did nothing. */
const NEVER_RAN = 'never ran: the process that queued it stopped first (nothing was done)';

interface LeftContext {
  store: StateStore;
  now: () => Date;
  /** The dedupe window, how long a pair's state lives (default: the schema's 15 minutes). */
  windowSeconds?: number;
}

/**
 * Runs a stopped process left behind in a state only it used (the local state, whose lock says no
 * other process has it open): each `running` one is interrupted with the writes it journaled, and
 * each `queued` one (its in-process queue died with it) interrupted too, as never ran. Their
 * leases and pairs are given back, so the next run starts at once; a follow-up the pair owed is
 * closed as never ran too, so the alerts it absorbed are said. `which` picks the runs (all of
 * them when the state was just opened; this process's own on Ctrl-C); `cause` says why.
 *
 * The listing comes from an index, which a process killed mid-write can leave ahead of the record
 * itself (dynalite writes the index first): the record read back is what happened, and a record
 * the index lists but that was never written is closed all the same.
 */
export async function closeLeftRuns(
  context: LeftContext,
  which: (record: RunRecord) => boolean,
  cause?: string,
): Promise<RunRecord[]> {
  const { store } = context;
  const left = (await store.runs.list()).filter((record) => OPEN.has(record.status) && which(record));
  const closed: RunRecord[] = [];
  for (const listed of left) {
    const stored = await store.runs.get(listed.runId);
    const record = stored ?? listed;
    const done = await close(record, stored !== undefined, context, cause);
    if (!done) continue;
    closed.push(done);
    if (record.owner) await store.leases.release(leaseKeyOf(record), record.owner);
    const pair = pairKeyOf(record);
    if (!pair) continue;
    const pairs = { ...context, windowSeconds: context.windowSeconds ?? 15 * 60 };
    const next = await finishPair(record.jobId, pair, pairs);
    if (!next) continue;
    const owed = closedAsNeverRan(queuedRecord(next, context.now()), context.now());
    if (await store.runs.create(owed)) closed.push(owed);
    // Its alerts did not run: the next one for the pair runs at once.
    await releasePair(next.id, pair, pairs);
  }
  return closed;
}

async function close(record: RunRecord, stored: boolean, context: LeftContext, cause?: string) {
  const { store } = context;
  // Only the index had it: written as closed, so it is never listed as queued again.
  if (!stored) {
    const never = closedAsNeverRan(record, context.now());
    await store.runs.put(never);
    return never;
  }
  if (!OPEN.has(record.status)) {
    // The record moved on but the index missed it: the index is rewritten from the record.
    await store.runs.put(record);
    return undefined;
  }
  if (record.status === 'running') return markInterrupted(record, context, cause);
  const never = closedAsNeverRan(record, context.now());
  return (await store.runs.advance(never, { status: ['queued'], jobId: record.jobId })) ? never : undefined;
}

function closedAsNeverRan(record: RunRecord, now: Date): RunRecord {
  return { ...record, status: 'interrupted', error: NEVER_RAN, finishedAt: now.toISOString(), posted: true };
}
