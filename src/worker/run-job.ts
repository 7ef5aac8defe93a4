import { randomUUID } from 'node:crypto';
import type { ChatTarget } from '../chat/types.ts';
import { ChatNotConfiguredError } from '../chat/unconfigured.ts';
import { untilAborted } from '../cluster/until-aborted.ts';
import type { ClusterConfig } from '../config/schema.ts';
import { actionKey } from '../engine/actuator.ts';
import type { RunCheckpoint } from '../engine/checkpoint.ts';
import { DEFAULT_DEADLINE_MS, type InvocationResult, runInvocation } from '../engine/run.ts';
import type { AnyRunbook, Brake, DoneAction, Report } from '../engine/types.ts';
import type { Job } from '../queue/job.ts';
import { summarize as summarizeRun } from '../report/summary.ts';
import { queuedRecord } from '../routing/admit.ts';
import { pairKey } from '../routing/follow-up.ts';
import type { RunExpectation, RunRecord, StateStore } from '../store/types.ts';
import { compactReport } from './compact-report.ts';
import { handedOnBy, handedOwner, invocationOf } from './continuation.ts';
import { continueLater, endedReport, invocationBudget, type RunClock } from './continue-later.ts';
import type { JobResult, WorkerContext } from './types.ts';

export type { JobResult, WorkerContext } from './types.ts';

/**
 * The brake of one run, counted in the shared store so every source and every worker draws from
 * one budget; a write that did not happen gives one of this run's tickets back.
 */
export function storeBrake(context: Pick<WorkerContext, 'config' | 'store' | 'now'>): Brake {
  const { maxWrites, windowMinutes } = context.config.limits.brake;
  const tickets: string[] = [];
  return {
    async tryWrite(cluster) {
      const ticket = await context.store.brake.take(cluster, maxWrites, windowMinutes * 60, context.now());
      if (ticket) tickets.push(ticket);
      return ticket !== undefined;
    },
    async refund(cluster) {
      const ticket = tickets.pop();
      if (ticket) await context.store.brake.refund(cluster, ticket);
    },
  };
}

/** One line of the audit record per write: `evict-pod shop/web-1: done (no CiliumEndpoint)`. */
export function actionLine(done: DoneAction): string {
  return `${done.action} ${done.target}: ${done.outcome}${done.detail ? ` (${done.detail})` : ''}`;
}

function summarize(report: Report): Pick<RunRecord, 'verdict' | 'plan' | 'actions' | 'report' | 'summary'> {
  const steps = report.steps;
  const { diagnosis, counts } = summarizeRun(report);
  return {
    summary: { diagnosis, ...counts },
    verdict: report.verdict,
    plan: steps.flatMap((s) => s.plan.map((p) => actionKey(p.action, p.target))),
    actions: steps.flatMap((s) => s.done.map(actionLine)),
    report: compactReport(report),
  };
}

const FINISHED: ReadonlySet<RunRecord['status']> = new Set(['done', 'duplicate', 'resolved', 'interrupted']);

/** This job's own record (not an earlier job's run that this one resumes), as a previous delivery left it. */
function ownRecord(record: RunRecord | undefined, job: Job): RunRecord | undefined {
  return record?.jobId === job.id ? record : undefined;
}

/** The report with the params the run was asked with and who set each (the approval message shows them). */
function withParams(report: Report, record: Pick<RunRecord, 'params' | 'paramsBy'>): Report {
  const params = Object.entries(record.params).map(([key, value]) => ({
    key,
    value,
    by: record.paramsBy?.[key] ?? 'unknown',
  }));
  return params.length > 0 ? { ...report, params } : report;
}

/** The lease of a (cluster, runbook) pair: one run at a time. */
export const leaseKeyOf = (job: Pick<Job, 'cluster' | 'runbook'>) => `${job.cluster}|${job.runbook}`;

/** The job a lease owner runs (owners are `<jobId>/<delivery>`). */
const jobOfOwner = (owner: string) => owner.split('/')[0];

/**
 * Runs one delivery of a job, idempotently by the job's id. The audit record only moves forward,
 * each step a conditional write on the state it expects and, once running, on this delivery as
 * its owner (see RunStore.advance):
 * - its run finished before (a redelivery): nothing runs and the record stays as it was; a report
 *   that never reached chat is posted now;
 * - its run is going on in another delivery (that one holds the lease): this one throws, so the
 *   queue asks again later, and writes nothing;
 * - its run was interrupted (the record says running and nobody holds the lease): reported as
 *   interrupted with the writes it journaled, never run again, since they may have happened;
 * - otherwise it takes the (cluster, runbook) lease (owned by this delivery alone, so two runs
 *   never overlap), runs the runbook with the shared brake, journals each write in the record
 *   before it is sent and after, records the outcome and posts the report to the problem's thread.
 * Errors propagate, so the queue retries the job and, in the end, dead-letters it with its reason:
 * a connect failure, a store failure, or a chat post that failed after its own retries.
 */
export async function runJob(job: Job, context: WorkerContext): Promise<JobResult> {
  const { store, config } = context;
  const runbook = context.runbooks.find((r) => r.id === job.runbook);
  const cluster = config.clusters.find((c) => c.name === job.cluster);
  if (!runbook || !cluster)
    throw new Error(
      `job ${job.id}: unknown ${runbook ? 'cluster' : 'runbook'} in ${job.cluster}/${job.runbook}`,
    );
  const target = chatTarget(job, context);
  const runId = job.resume?.runId ?? job.id;
  const previous = await store.runs.get(runId);
  const own = ownRecord(previous, job);
  if (own && FINISHED.has(own.status)) return { record: await postOnce(own, target, context) };
  // This job paused its run, but the job that continues it may not have been sent: send it again.
  if (previous && handedOnBy(previous, job)) return continueLater.again(job, previous, context);

  const leaseKey = leaseKeyOf(job);
  const owner = `${job.id}/${randomUUID()}${context.workerName ? ` (${context.workerName})` : ''}`;
  const leaseSeconds = config.limits.leaseSeconds;
  const continuing = invocationOf(job) > 1;
  // A continuation takes the lease its run handed it; another run never held it in between.
  const took =
    (continuing &&
      (await store.leases.handOver(leaseKey, handedOwner(job.id), owner, leaseSeconds, context.now()))) ||
    (await store.leases.acquire(leaseKey, owner, leaseSeconds, context.now()));
  if (!took) return { record: await busy(job, previous, context) };
  const lease = heartbeat(store, leaseKey, owner, leaseSeconds, context);
  // A stopped run renews nothing: the lease it gives back must stay free for the next run.
  context.signal?.addEventListener('abort', lease.stop, { once: true });
  try {
    if (own?.status === 'running' && own.owner !== handedOwner(job.id))
      return { record: await interrupted(own, target, context) };
    // A redelivery after a failure starts from the record it left; that error is not this attempt's.
    // A resume's report is its own: the post of the plan it resumes was the earlier job's.
    const {
      error: _failedBefore,
      posted: postedBefore,
      ...rest
    } = previous ?? queuedRecord(job, context.now());
    const base: RunRecord = own && postedBefore ? { ...rest, posted: postedBefore } : rest;
    // A continuation's run started in its first invocation: its deadline counts from there.
    const startedAt = (continuing && base.startedAt) || context.now().toISOString();
    // The resume job owns the record from here: its redeliveries find it finished.
    const running: RunRecord = { ...base, jobId: job.id, status: 'running', owner, startedAt };
    if (!previous) await store.runs.put(running);
    else if (!(await store.runs.advance(running, expectedBefore(job, previous))))
      throw new Error(`job ${job.id}: run ${runId} was moved on by another delivery; checking again later`);
    const journal = recordJournal(running, store, continuing);
    const fence = () => lease.lost() ?? journal.lost();
    const clock: RunClock = {
      startedAt: Date.parse(startedAt),
      deadlineMs: context.deadlineMs ?? DEFAULT_DEADLINE_MS,
      invocation: invocationOf(job),
    };
    let result: InvocationResult;
    try {
      result = await runReport(job, runbook, cluster, runId, context, running, journal, fence, clock);
    } catch (error) {
      if (!context.signal?.aborted) throw error;
      return { record: await stoppedRun(running, journal, context.signal, context) };
    }
    let report: Report;
    if (result.checkpoint) {
      const budget = invocationBudget(clock, context);
      if (budget.left) {
        lease.stop();
        const paused = { running, journal, owner, leaseKey, runLeftMs: budget.runLeftMs };
        return await continueLater(job, result.checkpoint, paused, context);
      }
      report = endedReport(result.checkpoint, job, runId, runbook, budget.why, context);
    } else report = result.report;
    report = withParams(report, running);
    const record: RunRecord = {
      ...running,
      ...summarize(report),
      status: 'done',
      finishedAt: context.now().toISOString(),
    };
    if (!(await journal.close(record))) {
      // Another worker took the run over after this one lost its lease, and said so: that stands.
      context.log.warn('the run finished after another worker took it over', { runId, owner });
      return { record: (await store.runs.get(runId)) ?? record, report };
    }
    return { record: await postOnce(record, target, context, report), report };
  } finally {
    lease.stop();
    context.signal?.removeEventListener('abort', lease.stop);
    await store.leases.release(leaseKey, owner);
  }
}

/**
 * What the record must be for this delivery to start its run: queued (or a failed attempt) for a
 * job; the finished plan for an approved resume; for a continuation, handed to it by the run's
 * last invocation (or a failed attempt of its own), exactly as read.
 */
function expectedBefore(job: Job, previous: RunRecord): RunExpectation {
  if (invocationOf(job) > 1)
    return {
      status: ['running', 'failed'].includes(previous.status) ? [previous.status] : [],
      ...ownerOf(previous),
    };
  return { status: job.resume ? ['done', 'failed'] : ['queued', 'failed'], jobId: previous.jobId };
}

const ownerOf = (record: RunRecord) => ({
  jobId: record.jobId,
  ...(record.owner ? { owner: record.owner } : {}),
});

/** A run stopped from outside: interrupted, with the reason and the writes it journaled. */
async function stoppedRun(
  running: RunRecord,
  journal: RecordJournal,
  signal: AbortSignal,
  context: WorkerContext,
): Promise<RunRecord> {
  await journal.settled();
  const reason: unknown = signal.reason;
  const cause = reason instanceof Error ? reason.message : String(reason);
  const record = { ...running, actions: journal.actions() };
  return (
    (await markInterrupted(record, context, cause)) ?? (await context.store.runs.get(running.runId)) ?? record
  );
}

export function chatTarget(
  job: Pick<Job, 'cluster' | 'runbook'>,
  context: Pick<WorkerContext, 'config' | 'defaultChannel'>,
): ChatTarget {
  const cluster = context.config.clusters.find((c) => c.name === job.cluster);
  return { channel: cluster?.channel ?? context.defaultChannel, threadKey: `${job.cluster}/${job.runbook}` };
}

/**
 * The lease is taken. By another delivery of this very job: it runs it, so this one comes back
 * later (to find it finished, or interrupted once that lease lapses). By another job: this one is
 * a duplicate, said in its record unless the record moved on meanwhile.
 */
async function busy(job: Job, previous: RunRecord | undefined, context: WorkerContext): Promise<RunRecord> {
  const { store } = context;
  const holder = await store.leases.holder(leaseKeyOf(job), context.now());
  const held = holder ? ` (lease held until ${holder.expiresAt})` : '';
  if (!holder || jobOfOwner(holder.owner) === job.id)
    throw new Error(`job ${job.id} is running in another worker${held}; checking again later`);
  // An approved plan, or a run half done, must not be lost to a run that happens to overlap: let
  // the queue bring it back.
  if (job.resume)
    throw new Error(
      `${job.runbook} on ${job.cluster} is busy${held}; the ${invocationOf(job) > 1 ? 'continued' : 'approved'} run will be retried`,
    );
  const skipped: RunRecord = {
    ...(previous ?? queuedRecord(job, context.now())),
    status: 'duplicate',
    error: `another ${job.runbook} run on ${job.cluster} is in progress (job ${jobOfOwner(holder.owner)}, its lease held until ${holder.expiresAt})`,
    finishedAt: context.now().toISOString(),
  };
  if (previous && !(await store.runs.advance(skipped, { status: ['queued', 'failed'], jobId: job.id })))
    return (await store.runs.get(previous.runId)) ?? skipped;
  if (!previous) await store.runs.put(skipped);
  // Alerts fold into the run they met; a person who asked is told, in the thread its report goes to.
  if (!pairKey(job))
    await context.chat.postText(
      chatTarget(job, context),
      `Not run: ${job.runbook} on ${job.cluster} asked by ${skipped.actor} (run ${skipped.runId}): run ${jobOfOwner(holder.owner)} of it was already in progress, and its report is posted in this thread. Ask again once it has ended for a run of your own.`,
    );
  return skipped;
}

/**
 * The run's record as its writes happen: each write is added before it is sent (`sending`) and
 * replaced by its outcome after, every change conditional on this delivery still owning the
 * record. Once a change is refused (the run was taken over), nothing more is written.
 */
function recordJournal(running: RunRecord, store: StateStore, continuing = false) {
  // A continued run keeps the writes its earlier invocations journaled.
  let current: RunRecord = { ...running, actions: continuing ? running.actions : [] };
  let lostAt: string | undefined;
  let queue: Promise<unknown> = Promise.resolve();
  const owner = running.owner as string;
  /** Writes in order: two evictions in parallel must not drop each other's lines. */
  const write = (change: (actions: string[]) => string[]) => {
    const next = queue.then(async () => {
      if (lostAt) throw new Error(lostAt);
      const record = { ...current, actions: change(current.actions) };
      if (!(await store.runs.advance(record, { status: ['running'], owner }))) {
        lostAt = `run ${running.runId} was taken over by another worker`;
        throw new Error(lostAt);
      }
      current = record;
    });
    queue = next.catch(() => {});
    return next;
  };
  const pending = (action: string, target: string) => `${action} ${target}: sending`;
  return {
    sending: (action: string, target: string) => write((actions) => [...actions, pending(action, target)]),
    landed: (done: DoneAction) =>
      write((actions) => {
        const at = actions.lastIndexOf(pending(done.action, done.target));
        const line = actionLine(done);
        return at < 0 ? [...actions, line] : actions.map((a, i) => (i === at ? line : a));
      }),
    lost: () => (lostAt ? `${lostAt}: nothing more is written` : undefined),
    /** Once every journaled change is written (or refused). */
    settled: () => queue,
    /** The finished (or failed) record, written only while this delivery still owns the run. */
    close: async (record: RunRecord) => {
      await queue;
      return store.runs.advance(record, { status: ['running'], owner });
    },
    /** The writes journaled so far, for a record that ends before the report says them. */
    actions: () => current.actions,
  };
}

type RecordJournal = ReturnType<typeof recordJournal>;

/**
 * Renews the lease every third of its life while the run goes on. A renewal that fails (the
 * worker stalled past the lease, and another run may hold it now) fences this run: it writes
 * nothing more.
 */
function heartbeat(
  store: StateStore,
  key: string,
  owner: string,
  seconds: number,
  context: Pick<WorkerContext, 'now' | 'log'>,
) {
  let lostAt: string | undefined;
  const timer = setInterval(
    () => {
      store.leases.acquire(key, owner, seconds, context.now()).then(
        (held) => {
          if (!held) lostAt ??= context.now().toISOString();
        },
        (error: unknown) => context.log.warn('could not renew the lease', { key, error: String(error) }),
      );
    },
    (seconds * 1000) / 3,
  );
  timer.unref();
  return {
    lost: () =>
      lostAt
        ? `the run lost its lease at ${lostAt}: another run may hold it, so nothing more is written`
        : undefined,
    stop: () => clearInterval(timer),
  };
}

async function runReport(
  job: Job,
  runbook: AnyRunbook,
  cluster: ClusterConfig,
  runId: string,
  context: WorkerContext,
  running: RunRecord,
  journal: RecordJournal,
  fence: () => string | undefined,
  clock: RunClock,
): Promise<InvocationResult> {
  try {
    const resumeFrom = invocationOf(job) > 1 ? await checkpointOf(job, runId, context) : undefined;
    // Its time ran out while it waited in the queue: it ends with what it did, connecting to nothing.
    const budget = invocationBudget(clock, context);
    if (resumeFrom && budget.runLeftMs <= 0) return { checkpoint: resumeFrom };
    // Named as the config names the cluster (EKS and kubeconfig connections carry the EKS cluster
    // or context name): the brake, reports and fingerprints must agree with `brake reset <cluster>`.
    const connecting = context.connect(cluster);
    const connected = context.signal ? untilAborted(connecting, context.signal) : connecting;
    const access = { ...(await connected), name: cluster.name };
    return await runInvocation({
      runbook,
      access,
      mode: job.mode,
      params: job.params,
      limits: context.config.limits,
      brake: storeBrake(context),
      runId,
      fence,
      journal,
      log: context.log,
      now: context.now,
      deadlineMs: Math.max(0, budget.runLeftMs),
      ...(context.timeLeftMs ? { pausing: () => invocationBudget(clock, context).pausing } : {}),
      ...(resumeFrom ? { resumeFrom } : {}),
      ...(context.signal ? { signal: context.signal } : {}),
      ...(context.onProgress
        ? {
            onProgress: (step: string, done: number, total: number, label: string, endsAt?: number) =>
              context.onProgress?.(job, step, done, total, label, endsAt),
          }
        : {}),
      ...(job.resume ? { approved: job.resume.approved } : {}),
    });
  } catch (error) {
    // Stopped from outside: the caller records it as interrupted.
    if (context.signal?.aborted) throw error;
    // The audit record must not say `running` for a job that died before acting: it says why, and
    // the queue retries.
    await journal.close({
      ...running,
      actions: journal.actions(),
      status: 'failed',
      error: error instanceof Error ? error.message : String(error),
      finishedAt: context.now().toISOString(),
    });
    throw error;
  }
}

/** The checkpoint a continuation was sent for: the one its run's last invocation saved. */
async function checkpointOf(job: Job, runId: string, context: WorkerContext): Promise<RunCheckpoint> {
  const id = String(invocationOf(job));
  const checkpoint = await context.store.checkpoints.load(runId, id, context.now());
  if (!checkpoint)
    throw new Error(
      `run ${runId}: the checkpoint its invocation ${Number(id) - 1} saved is not in the state table`,
    );
  return checkpoint as RunCheckpoint;
}

/** What a record expects of itself when it is written again: the same state, job and owner. */
const unchanged = (record: RunRecord) => ({
  status: [record.status],
  jobId: record.jobId,
  ...(record.owner ? { owner: record.owner } : {}),
});

/**
 * Posts the run's report unless an earlier delivery did; a failed post throws, so the queue
 * retries it. With no chat configured the report waits in the audit trail, and the log says why.
 */
async function postOnce(
  record: RunRecord,
  target: ChatTarget,
  context: WorkerContext,
  report = record.report,
): Promise<RunRecord> {
  if (record.posted || !report) return record;
  let thread: RunRecord['thread'];
  try {
    const { threadTs, channel } = await context.chat.postReport(report, target);
    if (threadTs && channel) thread = { channel, ts: threadTs };
  } catch (error) {
    if (!(error instanceof ChatNotConfiguredError)) throw error;
    context.log.warn(
      `the report of run ${record.runId} was not posted: ${error.message}; it waits in the audit trail (history, GET /runs)`,
      { runId: record.runId, channel: target.channel },
    );
    return record;
  }
  const posted: RunRecord = { ...record, posted: true, ...(thread ? { thread } : {}) };
  await context.store.runs.advance(posted, unchanged(record));
  return posted;
}

/** The writes a record journaled, for a person deciding what to check: `none` when there were none. */
export function writesOf(record: Pick<RunRecord, 'actions'>): string {
  if (record.actions.length === 0) return 'it journaled no writes';
  return `its writes: ${record.actions.join('; ')}`;
}

/** The worker or process that ran it, from its lease owner (`<job>/<delivery> (pid 12 on host)`). */
const workerOf = (owner: string | undefined) => owner?.match(/\((.+)\)$/)?.[1];

/**
 * A run whose worker stopped (a crash, a kill, Ctrl-C): its record says so with the writes it
 * journaled, and it is never run again, since they may have happened. Written only if the record
 * still names that worker (whoever moved it first said what happened): undefined otherwise.
 */
export async function markInterrupted(
  record: RunRecord,
  context: Pick<WorkerContext, 'store' | 'now'>,
  cause = `the ${workerOf(record.owner) ? `worker (${workerOf(record.owner)})` : 'worker'} stopped during this run`,
): Promise<RunRecord | undefined> {
  const stopped: RunRecord = {
    ...record,
    status: 'interrupted',
    error: `${cause} (started ${record.startedAt}); ${writesOf(record)}. It is not run again, since it may have acted: check the cluster, then run it again by hand`,
    finishedAt: context.now().toISOString(),
    posted: true,
  };
  return (await context.store.runs.advance(stopped, unchanged(record))) ? stopped : undefined;
}

/** An interrupted run, said in its thread too. */
export async function interrupted(
  record: RunRecord,
  target: ChatTarget,
  context: Pick<WorkerContext, 'store' | 'chat' | 'now'>,
): Promise<RunRecord> {
  const stopped = await markInterrupted(record, context);
  if (!stopped) return (await context.store.runs.get(record.runId)) ?? record;
  await context.chat.postText(
    target,
    `Interrupted: ${record.runbook} on ${record.cluster} (run ${record.runId}). ${stopped.error}`,
  );
  return stopped;
}
