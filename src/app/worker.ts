import type { Job } from '../queue/job.ts';
import { type JobResult, runJob } from '../worker/run-job.ts';
import type { AppPorts, ClusterPorts } from './ports.ts';

/** Runs queued jobs: the part of the responder that reaches clusters. */
export interface Worker {
  run(job: Job): Promise<JobResult>;
}

export function createWorker(ports: Omit<AppPorts, 'queue'>, clusters: ClusterPorts): Worker {
  return {
    run: (job) =>
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
      }),
  };
}
