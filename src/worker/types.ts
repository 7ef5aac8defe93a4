import type { ChatSink } from '../chat/types.ts';
import type { ClusterAccess } from '../cluster/types.ts';
import type { ClusterConfig, ResponderConfig } from '../config/schema.ts';
import type { AnyRunbook, Logger, Report } from '../engine/types.ts';
import type { Job } from '../queue/job.ts';
import type { JobQueue } from '../queue/types.ts';
import type { RunRecord, StateStore } from '../store/types.ts';

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
  /** Who runs the jobs (`pid 4242 on laptop`), kept with the lease owner so an interrupted run names it. */
  workerName?: string;
  /**
   * Stops the run under way (the CLI's Ctrl-C): its step is cut off, and its record says
   * `interrupted` with the signal's reason and the writes it journaled; its lease is given back.
   */
  signal?: AbortSignal;
  /**
   * How long this invocation has left, in milliseconds (Lambda's remaining time). With it, a run
   * whose step can pause stops taking new work `pauseMarginMs` before the invocation (or its own
   * deadline) ends and continues in the next invocation through `queue`.
   */
  timeLeftMs?: () => number;
  /** Where a run that continues in the next invocation is queued. */
  queue?: JobQueue;
  /** How long before the end a pausing step stops taking new work (default one minute). */
  pauseMarginMs?: number;
  /** The most invocations one run may take (default 8): at the last, it ends as timed out. */
  maxInvocations?: number;
}

/** What one delivery of a job came to: the audit record, and the full report when this delivery ran it. */
export interface JobResult {
  record: RunRecord;
  report?: Report;
  /** The job its run continues as, in the next invocation: the run has not ended. */
  continued?: Job;
}
