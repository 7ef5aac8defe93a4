import type { Job } from '../queue/job.ts';
import type { Dispatched } from '../routing/dispatch.ts';
import type { Trigger } from '../triggers/types.ts';
import type { JobResult } from '../worker/run-job.ts';
import { createApp } from './app.ts';
import type { AppPorts, ClusterPorts } from './ports.ts';
import { createWorker } from './worker.ts';

/** A job's result, or why it failed (the audit record says so too). */
export type InProcessResult = (JobResult & { error?: undefined }) | { job: Job; error: Error };

export interface InProcessRun {
  dispatched: Dispatched;
  results: InProcessResult[];
}

/**
 * A trigger admitted and run now, in this process (the CLI's `run` and `sweep`): the same
 * admission as every other source (authority, dedupe, audit record), then each job runs with the
 * lease, the limits and the brake, one after another.
 */
export async function runInProcess(
  trigger: Trigger,
  ports: Omit<AppPorts, 'queue'>,
  clusters: ClusterPorts,
): Promise<InProcessRun> {
  const jobs: Job[] = [];
  const queue = { send: async (job: Job) => void jobs.push(job) };
  const app = createApp({ ...ports, queue });
  const dispatched = await app.dispatch(trigger);
  // A follow-up the worker queues runs after the jobs before it, in this same loop.
  const worker = createWorker({ ...ports, queue }, clusters);
  const results: InProcessResult[] = [];
  for (const job of jobs) {
    // Stopped: the jobs not started stay queued, for the caller to close as never run.
    if (clusters.signal?.aborted) break;
    try {
      results.push(await worker.run(job));
    } catch (error) {
      // Locally there is no queue to try again: the person sees why and decides.
      results.push({ job, error: error instanceof Error ? error : new Error(String(error)) });
    }
  }
  return { dispatched, results };
}
