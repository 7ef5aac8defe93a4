import { randomUUID } from 'node:crypto';
import type { ChatSink, ChatTarget } from '../chat/types.ts';
import type { ClusterAccess } from '../cluster/types.ts';
import type { ClusterConfig, ResponderConfig } from '../config/schema.ts';
import { actionKey } from '../engine/actuator.ts';
import { runRunbook } from '../engine/run.ts';
import type { AnyRunbook, Brake, Logger, Report } from '../engine/types.ts';
import type { Job } from '../queue/job.ts';
import { summarize as summarizeRun } from '../report/summary.ts';
import { queuedRecord } from '../routing/admit.ts';
import type { RunRecord, StateStore } from '../store/types.ts';
import { compactReport } from './compact-report.ts';

export interface WorkerContext {
  config: ResponderConfig;
  store: StateStore;
  runbooks: readonly AnyRunbook[];
  connect: (cluster: ClusterConfig) => Promise<ClusterAccess>;
  chat: ChatSink;
  /** Channel for clusters that name none. */
  defaultChannel: string;
  now: () => Date;
  log: Logger;
  /** Run deadline in milliseconds (the engine's default when absent). */
  deadlineMs?: number;
  /** Progress during long fan-outs and waits, for a person watching (the CLI's progress line). */
  onProgress?: (job: Job, step: string, done: number, total: number, label: string, endsAt?: number) => void;
}

/** What one delivery of a job came to: the audit record, and the full report when this delivery ran it. */
export interface JobResult {
  record: RunRecord;
  report?: Report;
}

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

function summarize(report: Report): Pick<RunRecord, 'verdict' | 'plan' | 'actions' | 'report' | 'summary'> {
  const steps = report.steps;
  const { diagnosis, counts } = summarizeRun(report);
  return {
    summary: { diagnosis, ...counts },
    verdict: report.verdict,
    plan: steps.flatMap((s) => s.plan.map((p) => actionKey(p.action, p.target))),
    actions: steps.flatMap((s) =>
      s.done.map((d) => `${d.action} ${d.target}: ${d.outcome}${d.detail ? ` (${d.detail})` : ''}`),
    ),
    report: compactReport(report),
  };
}

const FINISHED: ReadonlySet<RunRecord['status']> = new Set(['done', 'duplicate', 'resolved', 'interrupted']);

/** This job's own record (not an earlier job's run that this one resumes), as a previous delivery left it. */
function ownRecord(record: RunRecord | undefined, job: Job): RunRecord | undefined {
  return record?.jobId === job.id ? record : undefined;
}

/**
 * Runs one delivery of a job, idempotently by the job's id:
 * - its run finished before (a redelivery): nothing runs and the record stays as it was; a report
 *   that never reached chat is posted now;
 * - its run was interrupted (the record says running and nobody holds the lease): reported as
 *   interrupted, never run again, since writes may have happened;
 * - otherwise it takes the (cluster, runbook) lease (owned by this delivery alone, so two runs
 *   never overlap), runs the runbook with the shared brake, records the audit entry and posts the
 *   report to the problem's thread.
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
  const target: ChatTarget = {
    channel: cluster.channel ?? context.defaultChannel,
    threadKey: `${job.cluster}/${job.runbook}`,
  };
  const runId = job.resume?.runId ?? job.id;
  const previous = await store.runs.get(runId);
  const own = ownRecord(previous, job);
  if (own && FINISHED.has(own.status)) return { record: await postOnce(own, target, context) };

  const leaseKey = `${job.cluster}|${job.runbook}`;
  const owner = `${job.id}/${randomUUID()}`;
  const leaseSeconds = config.limits.leaseSeconds;
  if (!(await store.leases.acquire(leaseKey, owner, leaseSeconds, context.now()))) {
    // Another delivery of this very job is running it, or died with the lease: come back later,
    // when it has finished (and this delivery does nothing) or its lease has lapsed (interrupted).
    if (own?.status === 'running')
      throw new Error(
        `job ${job.id} is running in another worker (it holds the lease); checking again later`,
      );
    // An approved plan must not be lost to a run that happens to overlap: let the queue bring it back.
    if (job.resume)
      throw new Error(`${job.runbook} on ${job.cluster} is busy; the approved run will be retried`);
    const skipped: RunRecord = {
      ...(previous ?? queuedRecord(job, context.now())),
      status: 'duplicate',
      error: `another ${job.runbook} run on ${job.cluster} is in progress`,
      finishedAt: context.now().toISOString(),
    };
    await store.runs.put(skipped);
    return { record: skipped };
  }
  const lease = heartbeat(store, leaseKey, owner, leaseSeconds, context);
  try {
    if (own?.status === 'running') return { record: await interrupted(own, target, context) };
    // A redelivery after a failure starts from the record it left; that error is not this attempt's.
    // A resume's report is its own: the post of the plan it resumes was the earlier job's.
    const {
      error: _failedBefore,
      posted: postedBefore,
      ...rest
    } = previous ?? queuedRecord(job, context.now());
    const base: RunRecord = own && postedBefore ? { ...rest, posted: postedBefore } : rest;
    const startedAt = context.now().toISOString();
    // The resume job owns the record from here: its redeliveries find it finished.
    await store.runs.put({ ...base, jobId: job.id, status: 'running', startedAt });
    const report = await runReport(job, runbook, cluster, runId, context, { ...base, startedAt }, lease.lost);
    const record: RunRecord = {
      ...base,
      ...summarize(report),
      jobId: job.id,
      status: 'done',
      startedAt,
      finishedAt: context.now().toISOString(),
    };
    await store.runs.put(record);
    return { record: await postOnce(record, target, context, report), report };
  } finally {
    lease.stop();
    await store.leases.release(leaseKey, owner);
  }
}

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
  base: RunRecord,
  fence: () => string | undefined,
): Promise<Report> {
  try {
    // Named as the config names the cluster (EKS and kubeconfig connections carry the EKS cluster
    // or context name): the brake, reports and fingerprints must agree with `brake reset <cluster>`.
    const access = { ...(await context.connect(cluster)), name: cluster.name };
    return await runRunbook({
      runbook,
      access,
      mode: job.mode,
      params: job.params,
      limits: context.config.limits,
      brake: storeBrake(context),
      runId,
      fence,
      log: context.log,
      now: context.now,
      ...(context.deadlineMs ? { deadlineMs: context.deadlineMs } : {}),
      ...(context.onProgress
        ? {
            onProgress: (step: string, done: number, total: number, label: string, endsAt?: number) =>
              context.onProgress?.(job, step, done, total, label, endsAt),
          }
        : {}),
      ...(job.resume ? { approved: job.resume.approved } : {}),
    });
  } catch (error) {
    // The audit record must not say `running` for a job that died before acting: it says why, and
    // the queue retries.
    await context.store.runs.put({
      ...base,
      jobId: job.id,
      status: 'failed',
      error: error instanceof Error ? error.message : String(error),
      finishedAt: context.now().toISOString(),
    });
    throw error;
  }
}

/** Posts the run's report unless an earlier delivery did; a failed post throws, so the queue retries it. */
async function postOnce(
  record: RunRecord,
  target: ChatTarget,
  context: WorkerContext,
  report = record.report,
): Promise<RunRecord> {
  if (record.posted || !report) return record;
  await context.chat.postReport(report, target);
  const posted = { ...record, posted: true };
  await context.store.runs.put(posted);
  return posted;
}

async function interrupted(
  record: RunRecord,
  target: ChatTarget,
  context: WorkerContext,
): Promise<RunRecord> {
  const stopped: RunRecord = {
    ...record,
    status: 'interrupted',
    error: `the worker stopped during this run (started ${record.startedAt}); it is not run again, since it may have acted: check the cluster, then run it again by hand`,
    finishedAt: context.now().toISOString(),
    posted: true,
  };
  await context.store.runs.put(stopped);
  await context.chat.postText(
    target,
    `Interrupted: ${record.runbook} on ${record.cluster} (run ${record.runId}). ${stopped.error}`,
  );
  return stopped;
}
