import { pendingKeyOf } from '../routing/admit.ts';
import type { RunRecord, StateStore } from '../store/types.ts';
import { leaseKeyOf, markInterrupted } from './run-job.ts';

/**
 * Runs a stopped process left behind in a state only it used (the local state, whose lock says no
 * other process has it open): each `running` one is interrupted with the writes it journaled, and
 * each `queued` one (its in-process queue died with it) failed, having done nothing. Their leases
 * and queue claims are given back, so the next run starts at once. `which` picks the runs (all of
 * them when the state was just opened; this process's own on Ctrl-C); `cause` says why.
 */
export async function closeLeftRuns(
  context: { store: StateStore; now: () => Date },
  which: (record: RunRecord) => boolean,
  cause?: string,
): Promise<RunRecord[]> {
  const { store } = context;
  const left = (await store.runs.list()).filter(
    (record) => (record.status === 'running' || record.status === 'queued') && which(record),
  );
  const closed: RunRecord[] = [];
  for (const record of left) {
    const done =
      record.status === 'running'
        ? await markInterrupted(record, context, cause)
        : await never(record, context.now(), store);
    if (!done) continue;
    closed.push(done);
    if (record.owner) await store.leases.release(leaseKeyOf(record), record.owner);
    const pending = pendingKeyOf(record);
    if (pending) await store.dedupe.release(pending);
  }
  return closed;
}

async function never(record: RunRecord, now: Date, store: StateStore): Promise<RunRecord | undefined> {
  const failed: RunRecord = {
    ...record,
    status: 'failed',
    error: 'never ran: the process that queued it stopped first (nothing was done)',
    finishedAt: now.toISOString(),
  };
  return (await store.runs.advance(failed, { status: ['queued'], jobId: record.jobId })) ? failed : undefined;
}
