import type { Job } from '../queue/job.ts';
import { parseJob } from '../queue/job-schema.ts';
import type { DeadLetter } from '../queue/types.ts';
import { pendingKey } from '../routing/admit.ts';
import { giveUp } from '../worker/give-up.ts';
import { type JobResult, runJob } from '../worker/run-job.ts';
import type { AppPorts, ClusterPorts } from './ports.ts';
import { summarizeSweepIfDone } from './sweep-summary.ts';

/** Runs queued jobs: the part of the responder that reaches clusters. */
export interface Worker {
  run(job: Job): Promise<JobResult>;
  /** A job the queue gave up on: its audit record and its chat thread say why, so nobody waits on it. */
  deadLettered(letter: DeadLetter): Promise<void>;
}

export function createWorker(ports: Omit<AppPorts, 'queue'>, clusters: ClusterPorts): Worker {
  /**
   * The job leaves the queue: the next automatic job for its pair may queue again, so an alert
   * that comes while this run is under way gets a run after it.
   */
  const settle = async (job: Job) => {
    const pending = pendingKey(job);
    if (pending) await ports.store.dedupe.release(pending);
  };
  const run = (job: Job) =>
    runJob(job, {
      config: ports.config,
      store: ports.store,
      runbooks: clusters.runbooks,
      connect: (cluster) => clusters.connect(cluster),
      chat: ports.chat,
      defaultChannel: ports.defaultChannel,
      now: ports.now,
      log: ports.log,
      ...(clusters.deadlineMs ? { deadlineMs: clusters.deadlineMs } : {}),
      ...(clusters.onProgress ? { onProgress: clusters.onProgress } : {}),
      ...(clusters.workerName ? { workerName: clusters.workerName } : {}),
    });
  return {
    async run(job) {
      await settle(job);
      const result = await run(job);
      await summarizeSweepIfDone(job, ports);
      return result;
    },
    async deadLettered(letter) {
      let job: Job;
      try {
        job = parseJob(letter.body);
      } catch {
        ports.log.error('a message that is not a job was dead-lettered', { reason: letter.reason });
        return;
      }
      await settle(job);
      const why = `gave up after ${letter.attempts} ${letter.attempts === 1 ? 'attempt' : 'attempts'}: ${letter.reason}`;
      await giveUp(job, why, ports);
    },
  };
}
