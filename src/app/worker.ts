import type { Job } from '../queue/job.ts';
import { parseJob } from '../queue/job-schema.ts';
import type { DeadLetter } from '../queue/types.ts';
import { queuedRecord } from '../routing/admit.ts';
import { finishPair, pairKey } from '../routing/follow-up.ts';
import { pairJobOf } from '../worker/continuation.ts';
import { giveUp } from '../worker/give-up.ts';
import { type JobResult, runJob } from '../worker/run-job.ts';
import type { AppPorts, ClusterPorts } from './ports.ts';
import { summarizeSweepIfDone } from './sweep-summary.ts';

/** Runs queued jobs: the part of the responder that reaches clusters. */
export interface Worker {
  /**
   * Runs one delivery of a job. `invocation.timeLeftMs`: how long the invocation running it has
   * left (Lambda's remaining time); with it, a run that cannot finish in time continues in the
   * next invocation through the queue.
   */
  run(job: Job, invocation?: { timeLeftMs: () => number }): Promise<JobResult>;
  /** A job the queue gave up on: its audit record and its chat thread say why, so nobody waits on it. */
  deadLettered(letter: DeadLetter): Promise<void>;
}

/**
 * The worker of these ports; `queue` takes the follow-ups (an automatic run's end queues the one
 * run the alerts that came meanwhile asked for).
 */
export function createWorker(ports: AppPorts, clusters: ClusterPorts): Worker {
  const pairs = {
    store: ports.store,
    now: ports.now,
    windowSeconds: ports.config.limits.dedupeMinutes * 60,
  };
  /**
   * The job's run ended: its pair's follow-up, if alerts came meanwhile, is recorded and queued
   * (again, unchanged, when a redelivery finds it was handed over but maybe not sent). An error
   * throws, so the queue brings this job back and it is tried again.
   */
  const handOver = async (ended: Job) => {
    // A continued run's pair is its first job's.
    const job = pairJobOf(ended);
    const pair = pairKey(job);
    const next = pair ? await finishPair(job.id, pair, pairs) : undefined;
    if (!next) return;
    await ports.store.runs.create(queuedRecord(next, ports.now()));
    await ports.queue.send(next);
  };
  const run = (job: Job, invocation?: { timeLeftMs: () => number }) =>
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
      ...(clusters.signal ? { signal: clusters.signal } : {}),
      ...(invocation ? { timeLeftMs: invocation.timeLeftMs, queue: ports.queue } : {}),
      ...(clusters.pauseMarginMs ? { pauseMarginMs: clusters.pauseMarginMs } : {}),
      ...(clusters.maxInvocations ? { maxInvocations: clusters.maxInvocations } : {}),
    });
  return {
    async run(job, invocation) {
      // Throws while the run goes on elsewhere or failed (the queue retries): its pair stays held.
      const result = await run(job, invocation);
      // A run that continues in the next invocation holds its pair until it ends.
      if (result.continued) return result;
      await handOver(job);
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
      const why = `gave up after ${letter.attempts} ${letter.attempts === 1 ? 'attempt' : 'attempts'}: ${letter.reason}`;
      await giveUp(job, why, ports);
      // A run still going on in another delivery hands its pair over when it ends.
      const record = await ports.store.runs.get(job.resume?.runId ?? job.id);
      if (record?.status !== 'running') await handOver(job);
    },
  };
}
