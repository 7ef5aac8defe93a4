import type { Report } from '../engine/types.ts';

/**
 * Where a message goes. `threadKey` names the problem (e.g. a finding fingerprint or an alert
 * group): every report with the same key lands in the same thread, so a problem has one thread.
 */
export interface ChatTarget {
  channel: string;
  threadKey: string;
}

/** The chat port: Slack in production, the console locally. */
export interface ChatSink {
  /**
   * Posts the report as the thread's root message, or edits that message in place when the
   * thread already exists. `threadTs` is the root's id when the sink has one (Slack's `ts`).
   */
  postReport(report: Report, target: ChatTarget): Promise<{ threadTs?: string }>;
  /** A short note (resolved, approved by, rejected by) in the thread, or a new message if there is none yet. */
  postText(target: ChatTarget, text: string): Promise<{ threadTs?: string }>;
}

/** A thread's root message: Slack needs the channel id (not the name) and `ts` to edit it. */
export interface ThreadRef {
  channel: string;
  ts: string;
}

/**
 * Remembers threadKey → root message. In memory by default; a persistent one lets a later Lambda
 * invocation edit the thread an earlier one started.
 */
export interface ThreadIndex {
  get(threadKey: string): Promise<ThreadRef | undefined>;
  set(threadKey: string, ref: ThreadRef): Promise<void>;
}
