import { type RunCheckpoint, reportAtCheckpoint } from '../engine/checkpoint.ts';
import type { AnyRunbook, Report } from '../engine/types.ts';
import type { Job } from '../queue/job.ts';
import type { RunRecord } from '../store/types.ts';
import { continuationOf, handedOwner, invocationOf } from './continuation.ts';
import type { JobResult, WorkerContext } from './types.ts';

/** How long before the end a pausing step stops taking new work: its agents in flight finish, the checkpoint is written. */
export const PAUSE_MARGIN_MS = 60_000;

/** The most invocations a run may take: one that keeps needing more ends as timed out. */
export const MAX_INVOCATIONS = 8;

/** When a run started (its first invocation, epoch ms), how long it may take, and which invocation this is. */
export interface RunClock {
  startedAt: number;
  deadlineMs: number;
  invocation: number;
}

type BudgetContext = Pick<WorkerContext, 'now' | 'timeLeftMs' | 'pauseMarginMs' | 'maxInvocations'>;

/**
 * What is left of the run and of this invocation: how long the run still has (its deadline counts
 * from its first invocation), whether a pausing step should stop taking new work now, and whether
 * a run that paused may go on in another invocation (`why` not, when it may not).
 */
export function invocationBudget(clock: RunClock, context: BudgetContext) {
  const margin = context.pauseMarginMs ?? PAUSE_MARGIN_MS;
  const runLeftMs = clock.startedAt + clock.deadlineMs - context.now().getTime();
  const pausing = runLeftMs <= margin || (context.timeLeftMs?.() ?? Number.POSITIVE_INFINITY) <= margin;
  const max = context.maxInvocations ?? MAX_INVOCATIONS;
  const minutes = Math.round(clock.deadlineMs / 60_000);
  const why =
    runLeftMs <= margin
      ? `timed out: its ${minutes}-minute deadline, counted from its start at ${new Date(clock.startedAt).toISOString()}, ran out in its invocation ${clock.invocation}`
      : clock.invocation >= max
        ? `timed out: it used all ${max} worker invocations a run may take`
        : undefined;
  return { runLeftMs, pausing, why, left: why === undefined };
}

/** The report of a run that cannot go on: what it did, the step it paused in cut off saying why. */
export function endedReport(
  checkpoint: RunCheckpoint,
  job: Job,
  runId: string,
  runbook: AnyRunbook,
  why: string | undefined,
  context: Pick<WorkerContext, 'now'>,
): Report {
  return reportAtCheckpoint(checkpoint, {
    runId,
    runbook,
    cluster: job.cluster,
    mode: job.mode,
    now: context.now(),
    why: why ?? 'timed out',
  });
}

interface Pausing {
  running: RunRecord;
  journal: { actions(): string[]; settled(): Promise<unknown>; close(record: RunRecord): Promise<boolean> };
  /** This delivery, as the lease and the record name it. */
  owner: string;
  leaseKey: string;
  /** What is left of the run's time. */
  runLeftMs: number;
}

/**
 * The run goes on in the next invocation: its checkpoint is saved, its record and its lease are
 * handed to the job that continues it (so no other run of the pair starts in between, and only
 * that job takes the run over), then that job is queued. The lease is handed for what is left of
 * the run's time: if the job never comes, the pair is free when the run's time would be up.
 * A send that fails throws, so the queue brings this job back, and it sends again.
 */
export async function continueLater(
  job: Job,
  checkpoint: RunCheckpoint,
  pausing: Pausing,
  context: WorkerContext,
): Promise<JobResult> {
  const { store } = context;
  const { running } = pausing;
  const next = continuationOf(job, running.runId);
  const runLeftSeconds = Math.max(1, Math.ceil(pausing.runLeftMs / 1000));
  await store.checkpoints.save(
    running.runId,
    String(invocationOf(next)),
    checkpoint,
    runLeftSeconds + 3600,
    context.now(),
  );
  // Every write journaled so far is in the record the next invocation starts from.
  await pausing.journal.settled();
  const handed: RunRecord = {
    ...running,
    actions: pausing.journal.actions(),
    jobId: next.id,
    owner: handedOwner(next.id),
  };
  if (!(await pausing.journal.close(handed))) {
    context.log.warn('the run was taken over before it could pause', { runId: running.runId });
    return { record: (await store.runs.get(running.runId)) ?? running };
  }
  if (
    !(await store.leases.handOver(
      pausing.leaseKey,
      pausing.owner,
      handed.owner as string,
      runLeftSeconds,
      context.now(),
    ))
  )
    context.log.warn('the run lost its lease before it could hand it on; its continuation waits for it', {
      runId: running.runId,
    });
  return sendContinuation(job, handed, next, context);
}

/** A redelivery of the job that paused: its continuation is sent again (the same job, so it runs once). */
continueLater.again = (job: Job, record: RunRecord, context: WorkerContext) =>
  sendContinuation(job, record, continuationOf(job, record.runId), context);

async function sendContinuation(
  job: Job,
  record: RunRecord,
  next: Job,
  context: WorkerContext,
): Promise<JobResult> {
  if (!context.queue)
    throw new Error(`job ${job.id}: its run continues in another invocation, but no queue was given`);
  await context.queue.send(next);
  context.log.info('the run continues in the next invocation', { runId: record.runId, job: next.id });
  return { record, continued: next };
}
