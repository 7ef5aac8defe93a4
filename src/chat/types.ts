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
  postReport(report: Report, target: ChatTarget): Promise<{ threadTs?: string; channel?: string }>;
  /** A short note (resolved, approved by, rejected by) in the thread, or a new message if there is none yet. */
  postText(target: ChatTarget, text: string): Promise<{ threadTs?: string }>;
  /**
   * Replaces an approval message's buttons with what was decided and by whom, so nobody clicks a
   * settled plan again. `report` is the run's report, to keep the rest of the message.
   */
  settleApproval?(message: MessageRef, report: Report | undefined, outcome: string): Promise<void>;
  /**
   * Adds a note under the report on the thread's head (edited in place, not a new post), e.g. that
   * the alert resolved; starts the thread with the note when there is none. `report` is the last
   * one the head shows, to keep it.
   */
  noteOnHead?(target: ChatTarget, report: Report | undefined, note: string): Promise<void>;
  /** A link to the thread of `threadKey`, when it has one (Slack: a permalink to its head). */
  threadLink?(threadKey: string): Promise<string | undefined>;
  /** A link to a posted message (Slack: its permalink). */
  permalink?(message: MessageRef): Promise<string | undefined>;
  /** A message only `user` sees in `channel` (a refusal, "already decided"). */
  tellUser?(channel: string, user: string, text: string): Promise<void>;
}

/** A posted message: its channel and its id (Slack's `ts`). */
export interface MessageRef {
  channel: string;
  ts: string;
}

/** Which of some user groups a person belongs to (Slack user groups, looked up by the chat adapter). */
export interface ApproverDirectory {
  groupsOf(userId: string, groups: readonly string[]): Promise<string[]>;
}
