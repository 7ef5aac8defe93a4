import type { ApproverDirectory } from '../chat/types.ts';
import type { ResponderConfig } from '../config/schema.ts';
import type { Job } from '../queue/job.ts';
import type { ApprovalDecisionRecord, RunRecord, RunStore } from '../store/types.ts';
import type { Actor, Trigger } from '../triggers/types.ts';

export type ApprovalDecision =
  | { kind: 'resume'; job: Job }
  | { kind: 'rejected'; runId: string }
  | { kind: 'refused'; reason: string };

function approversOf(config: ResponderConfig, runbook: string | undefined): string[] {
  return runbook
    ? [...(config.approvers[runbook] ?? []), ...(config.approvers['*'] ?? [])]
    : Object.values(config.approvers).flat();
}

/** Whether this Slack user (or one of their groups) may approve runs of this runbook. */
export function mayApprove(config: ResponderConfig, runbook: string, actorIds: readonly string[]): boolean {
  const allowed = approversOf(config, runbook);
  return actorIds.some((id) => allowed.includes(id));
}

/**
 * Whether a person is an approver, for one runbook or (without one) for any: by user id, or
 * through a user group (`S…`) the directory says they are in. Without a directory, only user ids count.
 */
export async function isApprover(
  config: ResponderConfig,
  userId: string,
  runbook?: string,
  directory?: ApproverDirectory,
): Promise<boolean> {
  const allowed = approversOf(config, runbook);
  if (allowed.includes(userId)) return true;
  const groups = allowed.filter((id) => id.startsWith('S'));
  if (!directory || groups.length === 0) return false;
  return (await directory.groupsOf(userId, groups)).length > 0;
}

/** Approve and reject clicks for one run share this dedupe key: the first decision wins. */
export function approvalDedupeKey(runId: string): string {
  return `approval|${runId}`;
}

const REJECTED = 'plan rejected by ';

/** Who decided, and when, as the audit record keeps it. */
export function decisionOf(
  outcome: ApprovalDecisionRecord['outcome'],
  actor: Actor,
  at: Date,
  approved?: string[],
): ApprovalDecisionRecord {
  return {
    outcome,
    by: actor.id,
    ...(actor.name ? { byName: actor.name } : {}),
    at: at.toISOString(),
    ...(approved ? { approved } : {}),
  };
}

/** The record of a run whose plan a person rejected: closed, never resumed afterwards. */
export function rejectedRecord(record: RunRecord, actor: Actor, at: Date): RunRecord {
  return {
    ...record,
    status: 'done',
    error: `${REJECTED}${actor.name ?? actor.id}`,
    decision: decisionOf('rejected', actor, at),
  };
}

/** Why a run cannot take an approval now (rejected, running, or no plan waiting), if it cannot. */
function notWaiting(record: RunRecord): string | undefined {
  if (record.error?.startsWith(REJECTED)) return record.error;
  if (record.status === 'running') return 'running';
  if (record.verdict !== 'needs-approval') return record.verdict ?? record.status;
  return undefined;
}

/** Why a plan can no longer be approved (the cluster has moved on since it was made), if so. */
function expiry(record: RunRecord, minutes: number, now: Date): string | undefined {
  const madeAt = Date.parse(record.finishedAt ?? record.queuedAt);
  if (now.getTime() - madeAt <= minutes * 60_000) return undefined;
  return `the plan of run ${record.runId} was made at ${new Date(madeAt).toISOString()} and expired after ${minutes} min: run it again for a fresh plan`;
}

/**
 * An approve/reject button press → a job that resumes the waiting run with exactly the approved
 * plan, which the engine re-checks against the cluster (uids, still unmanaged, limits). Double
 * clicks share the dedupe key `approval|<runId>`, so only one resume runs.
 */
export async function decideApproval(
  trigger: Trigger,
  context: {
    config: ResponderConfig;
    runs: RunStore;
    newId: () => string;
    now: () => Date;
    directory?: ApproverDirectory;
  },
): Promise<ApprovalDecision> {
  const approval = trigger.approval;
  if (!approval) return { kind: 'refused', reason: 'not an approval' };
  const record = await context.runs.get(approval.runId);
  if (!record) return { kind: 'refused', reason: `no run ${approval.runId}` };
  const why = notWaiting(record);
  if (why) return { kind: 'refused', reason: `run ${approval.runId} is not waiting for approval (${why})` };
  const expired = expiry(record, context.config.limits.approvalMinutes, context.now());
  if (expired) return { kind: 'refused', reason: expired };
  // The person at the terminal is the CLI's authority; in chat, only the configured approvers.
  const local = trigger.source === 'cli';
  if (!local && !(await isApprover(context.config, trigger.actor.id, record.runbook, context.directory))) {
    return { kind: 'refused', reason: `<@${trigger.actor.id}> may not approve ${record.runbook} runs` };
  }
  if (approval.decision === 'reject') return { kind: 'rejected', runId: record.runId };
  const planned = new Set(record.plan);
  const approved = approval.approved.filter((key) => planned.has(key));
  if (approved.length === 0) return { kind: 'refused', reason: "nothing approved is in the run's plan" };
  return {
    kind: 'resume',
    job: {
      id: context.newId(),
      runbook: record.runbook,
      cluster: record.cluster,
      mode: 'approve',
      // The approved plan was made with these; the resume re-checks it under the same ones.
      params: record.params ?? {},
      trigger,
      dedupeKey: approvalDedupeKey(record.runId),
      resume: { runId: record.runId, approved },
    },
  };
}
