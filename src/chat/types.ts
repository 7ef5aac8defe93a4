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

/** Which of some user groups a person belongs to (Slack user groups, looked up by the chat adapter). */
export interface ApproverDirectory {
  groupsOf(userId: string, groups: readonly string[]): Promise<string[]>;
}
