import type { ApproverDirectory, ChatSink } from '../chat/types.ts';
import type { ClusterAccess } from '../cluster/types.ts';
import type { ClusterConfig, ResponderConfig } from '../config/schema.ts';
import type { AnyRunbook, Logger, RunbookInfo } from '../engine/types.ts';
import type { Job } from '../queue/job.ts';
import type { JobQueue } from '../queue/types.ts';
import type { StateStore } from '../store/types.ts';

/**
 * What the responder is built from. Each entry (a Lambda handler, `responder serve`, `run`,
 * `sweep`, the demo) picks its adapters (DynamoDB or local state, SQS or in-process, Slack or the
 * console) and hands them here; the operations on top are the same for all of them.
 */
export interface AppPorts {
  config: ResponderConfig;
  /** Every runbook id, for routing `all` and checking names. */
  runbookIds: readonly string[];
  /** Titles, whether each runbook writes, and its params schema (admission checks params by it). */
  runbookInfo: readonly RunbookInfo[];
  store: StateStore;
  queue: JobQueue;
  chat: ChatSink;
  /** Resolves approvers configured as Slack user groups; without it only user ids approve. */
  directory?: ApproverDirectory;
  /** Channel for clusters that name none. */
  defaultChannel: string;
  now: () => Date;
  newId: () => string;
  log: Logger;
}

/** What running a job needs beyond the ports: the runbooks and a way into each cluster. */
export interface ClusterPorts {
  runbooks: readonly AnyRunbook[];
  connect(cluster: ClusterConfig): Promise<ClusterAccess>;
  /** A run's time budget in milliseconds (the engine's default when absent). */
  deadlineMs?: number;
  /** Progress during long fan-outs and waits; `endsAt` (epoch ms) when a bounded wait gives up. */
  onProgress?: (job: Job, step: string, done: number, total: number, label: string, endsAt?: number) => void;
  /** Who runs the jobs (`pid 4242 on laptop`), so a run this process leaves behind names it. */
  workerName?: string;
  /** Stops the job under way (interrupted, its lease given back) and any not started (the CLI's Ctrl-C). */
  signal?: AbortSignal;
  /** How long before an invocation's end a run that can pause stops taking new work (default one minute). */
  pauseMarginMs?: number;
  /** The most worker invocations one run may take (default 8). */
  maxInvocations?: number;
}

export const DEFAULT_CHANNEL = '#cilium-responder';
