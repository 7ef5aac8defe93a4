import type { ChatSink } from '../chat/types.ts';
import type { ClusterAccess } from '../cluster/types.ts';
import type { ClusterConfig, ResponderConfig } from '../config/schema.ts';
import { actionKey } from '../engine/actuator.ts';
import { runRunbook } from '../engine/run.ts';
import type { Brake, Logger, Report, Runbook } from '../engine/types.ts';
import type { Job } from '../queue/job.ts';
import { queuedRecord } from '../routing/admit.ts';
import type { RunRecord, StateStore } from '../store/types.ts';
import { compactReport } from './compact-report.ts';

export interface WorkerContext {
  config: ResponderConfig;
  store: StateStore;
  runbooks: readonly Runbook<never>[];
  connect: (cluster: ClusterConfig) => Promise<ClusterAccess>;
  chat: ChatSink;
  /** Channel for clusters that name none. */
  defaultChannel: string;
  now: () => Date;
  log: Logger;
  /** Who holds leases taken by this worker (a Lambda request id, a process id). */
  owner: string;
}

/** The brake, counted in the shared store so every source and every worker draws from one budget. */
export function storeBrake(context: Pick<WorkerContext, 'config' | 'store' | 'now'>): Brake {
  const { maxWrites, windowMinutes } = context.config.limits.brake;
  return {
    tryWrite: (cluster) => context.store.brake.take(cluster, maxWrites, windowMinutes * 60, context.now()),
  };
}

function summarize(report: Report): Pick<RunRecord, 'verdict' | 'plan' | 'actions' | 'report'> {
  const steps = report.steps;
  return {
    verdict: report.verdict,
    plan: steps.flatMap((s) => s.plan.map((p) => actionKey(p.action, p.target))),
    actions: steps.flatMap((s) =>
      s.done.map((d) => `${d.action} ${d.target}: ${d.outcome}${d.detail ? ` (${d.detail})` : ''}`),
    ),
    report: compactReport(report),
  };
}

/**
 * Runs one job: takes the (cluster, runbook) lease so two runs never overlap, connects, runs the
 * runbook with the shared brake, records the audit entry, posts the report to the problem's
 * thread, and gives the lease back. Errors before a report exists propagate, so the queue retries
 * the job and, in the end, dead-letters it with its reason.
 */
export async function runJob(job: Job, context: WorkerContext): Promise<RunRecord> {
  const { store, config } = context;
  const runbook = context.runbooks.find((r) => r.id === job.runbook);
  const cluster = config.clusters.find((c) => c.name === job.cluster);
  if (!runbook || !cluster)
    throw new Error(
      `job ${job.id}: unknown ${runbook ? 'cluster' : 'runbook'} in ${job.cluster}/${job.runbook}`,
    );
  // A redelivery starts from the record a failed attempt left; its error is not this attempt's.
  const { error: _failedBefore, ...base } =
    (await store.runs.get(job.resume?.runId ?? job.id)) ?? queuedRecord(job, context.now());
  const leaseKey = `${job.cluster}|${job.runbook}`;
  if (
    !(await store.leases.acquire(leaseKey, context.owner, config.limits.leaseMinutes * 60, context.now()))
  ) {
    // An approved plan must not be lost to a run that happens to overlap: let the queue bring it back.
    if (job.resume)
      throw new Error(`${job.runbook} on ${job.cluster} is busy; the approved run will be retried`);
    const skipped: RunRecord = {
      ...base,
      status: 'duplicate',
      error: `another ${job.runbook} run on ${job.cluster} is in progress`,
      finishedAt: context.now().toISOString(),
    };
    await store.runs.put(skipped);
    return skipped;
  }
  try {
    const startedAt = context.now().toISOString();
    await store.runs.put({ ...base, status: 'running', startedAt });
    let report: Report;
    try {
      // Named as the config names the cluster (EKS and kubeconfig connections carry the EKS cluster
      // or context name): the brake, reports and fingerprints must agree with `brake reset <cluster>`.
      const access = { ...(await context.connect(cluster)), name: cluster.name };
      report = await runRunbook({
        runbook,
        access,
        mode: job.mode,
        params: job.params,
        limits: config.limits,
        brake: storeBrake(context),
        runId: base.runId,
        log: context.log,
        now: context.now,
        ...(job.resume ? { approved: job.resume.approved } : {}),
      });
    } catch (error) {
      // The audit record must not say `running` for a job that died: it says why, and the queue retries.
      await store.runs.put({
        ...base,
        status: 'failed',
        startedAt,
        error: error instanceof Error ? error.message : String(error),
        finishedAt: context.now().toISOString(),
      });
      throw error;
    }
    const record: RunRecord = {
      ...base,
      ...summarize(report),
      status: 'done',
      startedAt,
      finishedAt: context.now().toISOString(),
    };
    await store.runs.put(record);
    try {
      await context.chat.postReport(report, {
        channel: cluster.channel ?? context.defaultChannel,
        threadKey: `${job.cluster}/${job.runbook}`,
      });
    } catch (error) {
      // The run is done and recorded; retrying the job for a chat failure would run it (and act) twice.
      context.log.error('could not post the report to chat', { runId: record.runId, error: String(error) });
    }
    return record;
  } finally {
    await store.leases.release(leaseKey, context.owner);
  }
}
