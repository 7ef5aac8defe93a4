import type { ApproverDirectory, ChatSink } from '../chat/types.ts';
import type { ResponderConfig } from '../config/schema.ts';
import type { RunbookInfo } from '../engine/types.ts';
import type { Job } from '../queue/job.ts';
import type { JobQueue } from '../queue/types.ts';
import type { RunRecord, StateStore } from '../store/types.ts';
import type { Trigger } from '../triggers/types.ts';
import { decisionOf } from './approval.ts';
import { refusal } from './authority.ts';
import { admitToPair, pairKey, releasePair } from './follow-up.ts';
import { runTrigger } from './run-trigger.ts';

export interface AdmitContext {
  config: ResponderConfig;
  store: StateStore;
  queue: JobQueue;
  now: () => Date;
  /** Where resolved alerts are said, in the problem's thread; without it they are only recorded. */
  chat?: ChatSink;
  /** Resolves approvers configured as Slack user groups; without it only user ids approve. */
  directory?: ApproverDirectory;
  /** Channel for clusters that name none. */
  defaultChannel?: string;
  /** Which runbooks write: a read-only one needs no approver's authority. */
  runbookInfo?: readonly RunbookInfo[];
}

export interface Admission {
  queued: Job[];
  /**
   * Jobs whose dedupe key was already claimed (a retry, a copy, a double click), or whose pair had
   * its follow-up within the window: nothing queued.
   */
  duplicates: Job[];
  /** Automatic jobs that came while a run of their pair was queued or running: they wait for its one follow-up. */
  absorbed: Job[];
  /** Jobs whose source lacks the authority to write, with why: nothing queued, nothing claimed. */
  refused: string[];
}

function reasonOf(trigger: Trigger): string {
  if (trigger.followUp) {
    const { after, notifications } = trigger.followUp;
    const names = [...new Set(trigger.alerts.map((a) => a.name))].join(', ') || trigger.source;
    return `${names} (follow-up of run ${after}: ${notifications} ${notifications === 1 ? 'notification' : 'notifications'} came while it was queued or running)`;
  }
  if (trigger.alerts.length > 0) return [...new Set(trigger.alerts.map((a) => a.name))].join(', ');
  if (trigger.approval) return `${trigger.approval.decision} of run ${trigger.approval.runId}`;
  if (trigger.schedule) return `schedule ${trigger.schedule.name}`;
  return trigger.source;
}

/** The audit record a job starts with. */
export function queuedRecord(job: Job, now: Date): RunRecord {
  return {
    runId: job.resume?.runId ?? job.id,
    jobId: job.id,
    cluster: job.cluster,
    runbook: job.runbook,
    mode: job.mode,
    source: job.trigger.source,
    actor: job.trigger.actor.name ?? job.trigger.actor.id,
    reason: reasonOf(job.trigger),
    deliveryKey: job.trigger.deliveryKey,
    trigger: runTrigger(job.trigger),
    params: job.params,
    ...(job.paramsBy ? { paramsBy: job.paramsBy } : {}),
    status: 'queued',
    plan: [],
    actions: [],
    queuedAt: now.toISOString(),
  };
}

/**
 * Makes jobs safe to queue: a job whose source lacks the authority to write is refused; a job
 * whose dedupe key was claimed within the window is a duplicate and goes nowhere. An automatic
 * job whose (cluster, runbook) has a run queued or running is absorbed into that run's one
 * follow-up (src/routing/follow-up.ts), and is a duplicate once the follow-up was made in the
 * window. The rest are recorded and queued. (Leases are taken by the worker, for the length of
 * the run; the brake is counted per cluster write by the actuator.)
 */
export async function admit(jobs: readonly Job[], context: AdmitContext): Promise<Admission> {
  const ttlSeconds = context.config.limits.dedupeMinutes * 60;
  const pairs = { store: context.store, now: context.now, windowSeconds: ttlSeconds };
  const admission: Admission = { queued: [], duplicates: [], absorbed: [], refused: [] };
  for (const job of jobs) {
    const refused = await refusal(job, context);
    if (refused) {
      admission.refused.push(refused);
      continue;
    }
    if (!(await context.store.dedupe.claim(job.dedupeKey, ttlSeconds, context.now()))) {
      admission.duplicates.push(job);
      continue;
    }
    const pair = pairKey(job);
    const held = pair ? await admitToPair(job, pair, pairs) : 'run';
    if (held !== 'run') {
      admission[held === 'absorbed' ? 'absorbed' : 'duplicates'].push(job);
      continue;
    }
    // The pair is firing (or asked about) again: its next resolve is news.
    if (!job.resume) await context.store.dedupe.release(resolvedKey(job));
    try {
      // A resumed run keeps its record (it already holds the plan and the first report); who
      // approved it is written there before the job can start, so no worker's write races it.
      if (job.resume) await recordApproval(job, job.resume, context);
      else await context.store.runs.put(queuedRecord(job, context.now()));
      await context.queue.send(job);
    } catch (error) {
      // Not queued, so not claimed: the sender's retry must be able to run it.
      await context.store.dedupe.release(job.dedupeKey);
      if (pair) await releasePair(job.id, pair, pairs);
      throw error;
    }
    admission.queued.push(job);
  }
  return admission;
}

/** The audit record says who approved the plan, when, and what; only while it still waits. */
async function recordApproval(job: Job, resume: NonNullable<Job['resume']>, context: AdmitContext) {
  const record = await context.store.runs.get(resume.runId);
  if (!record) throw new Error(`run ${resume.runId} has no audit record to resume`);
  const decision = decisionOf('approved', job.trigger.actor, context.now(), resume.approved);
  const expected = { status: [record.status], jobId: record.jobId };
  if (!(await context.store.runs.advance({ ...record, decision }, expected)))
    throw new Error(`run ${resume.runId} changed while it was being approved; click again`);
}

/**
 * The claim that a (cluster, runbook) pair's chat thread says its alert resolved. Taken by the
 * first resolved notification, given back when the pair fires again (a job for it is queued): so
 * the thread hears of a resolve once per state change, not once per notification (a storm of
 * 2,000 resolved notifications is one edit of the thread's head). A week bounds a forgotten one.
 */
const resolvedKey = (job: Pick<Job, 'cluster' | 'runbook'>) => `resolved|${job.cluster}|${job.runbook}`;
const RESOLVED_SAID_SECONDS = 7 * 24 * 3600;

/**
 * Resolved alerts run nothing: each notification is recorded (once however often it is
 * delivered); the pair's chat thread says it once per state change, on its head.
 */
export async function recordResolved(jobs: readonly Job[], context: AdmitContext): Promise<RunRecord[]> {
  const records: RunRecord[] = [];
  const ttlSeconds = context.config.limits.dedupeMinutes * 60;
  for (const job of jobs) {
    if (!(await context.store.dedupe.claim(job.dedupeKey, ttlSeconds, context.now()))) continue;
    if (await context.store.dedupe.claim(resolvedKey(job), RESOLVED_SAID_SECONDS, context.now()))
      await sayResolved(job, context);
    const record: RunRecord = {
      ...queuedRecord(job, context.now()),
      status: 'resolved',
      finishedAt: context.now().toISOString(),
    };
    await context.store.runs.put(record);
    records.push(record);
  }
  return records;
}

/** The pair's thread head says the alert resolved, beside the last report (said in a post if the sink cannot edit). */
async function sayResolved(job: Job, context: AdmitContext): Promise<void> {
  if (!context.chat) return;
  const channel =
    context.config.clusters.find((c) => c.name === job.cluster)?.channel ??
    context.defaultChannel ??
    '#cilium-responder';
  const target = { channel, threadKey: `${job.cluster}/${job.runbook}` };
  const text = `Resolved: ${reasonOf(job.trigger)} on ${job.cluster} (nothing to run).`;
  if (!context.chat.noteOnHead) {
    await context.chat.postText(target, text);
    return;
  }
  const recent = await context.store.runs.list({ cluster: job.cluster, limit: 50 });
  const last = recent.find((run) => run.runbook === job.runbook && run.report)?.report;
  await context.chat.noteOnHead(target, last, text);
}
