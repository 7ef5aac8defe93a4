import type { Job } from '../queue/job.ts';
import type { RunRecord } from '../store/types.ts';
import { chatTarget, interrupted, leaseKeyOf, type WorkerContext } from './run-job.ts';

type GiveUpContext = Pick<WorkerContext, 'config' | 'store' | 'chat' | 'defaultChannel' | 'now' | 'log'>;

/**
 * A job the queue gave up on. "Gave up" is said (record failed, a line in the thread) only for a
 * run that really ended without finishing. A run still going on in another delivery (its
 * redeliveries were what failed) is left to finish and report; one whose worker died is
 * interrupted, with its writes; a finished one stays as it is.
 */
export async function giveUp(job: Job, why: string, context: GiveUpContext): Promise<void> {
  const runId = job.resume?.runId ?? job.id;
  const record = await context.store.runs.get(runId);
  const target = chatTarget(job, context);
  if (record?.status === 'running') {
    const holder = await context.store.leases.holder(leaseKeyOf(job), context.now());
    if (holder?.owner === record.owner) {
      context.log.warn('a job was dead-lettered while its run goes on; that run reports', { runId, why });
      return;
    }
    await interrupted(record, target, context);
    return;
  }
  // Its own record finished (a redelivery that kept failing to post, say): nothing was given up.
  if (record && record.jobId === job.id && record.status !== 'queued' && record.status !== 'failed') {
    context.log.warn('a finished job was dead-lettered', { runId, status: record.status, why });
    return;
  }
  if (record) {
    const failed: RunRecord = {
      ...record,
      status: 'failed',
      error: why,
      finishedAt: context.now().toISOString(),
    };
    // Moved on meanwhile (it started, or finished): decide again on what it is now.
    if (!(await context.store.runs.advance(failed, { status: [record.status], jobId: record.jobId })))
      return giveUp(job, why, context);
  }
  await context.chat.postText(
    target,
    `Failed: ${job.runbook} on ${job.cluster} (run ${runId}) ${why}. The job is kept in the dead-letter queue.`,
  );
}
