import type { Job } from '../queue/job.ts';
import { pairKey } from '../routing/follow-up.ts';
import type { RunRecord } from '../store/types.ts';

/**
 * A run that continues in the next worker invocation goes on as a job of its own, named after
 * the run and the invocation: a pause sent twice (a redelivery) sends one job.
 */
export const continuationId = (runId: string, invocation: number) => `${runId}-continue-${invocation}`;

/** Which invocation of its run a job is: 1 unless it continues one. */
export const invocationOf = (job: Job) => job.resume?.invocation ?? 1;

/**
 * The lease owner, and the record's, while a run waits in the queue for its next invocation: the
 * continuation job's, so only that job's delivery takes the run over.
 */
export const handedOwner = (jobId: string) => `${jobId}/handed`;

/** The job that continues `job`'s run in its next invocation. */
export function continuationOf(job: Job, runId: string): Job {
  const invocation = invocationOf(job) + 1;
  const pair = job.resume ? job.resume.pair === true : pairKey(job) !== undefined;
  return {
    ...job,
    id: continuationId(runId, invocation),
    resume: { runId, approved: job.resume?.approved ?? [], invocation, ...(pair ? { pair } : {}) },
  };
}

/** The record says `job` paused its run and handed it to the job that continues it. */
export const handedOnBy = (record: RunRecord, job: Job) =>
  record.status === 'running' &&
  record.owner === handedOwner(continuationId(record.runId, invocationOf(job) + 1));

/**
 * The job whose pair the run holds: a continuation's first job (its id is the run's), so the
 * run's end hands the pair on as the first job's own end would have.
 */
export function pairJobOf(job: Job): Job {
  if (!job.resume?.pair) return job;
  const { resume: _continues, ...first } = job;
  return { ...first, id: job.resume.runId };
}
