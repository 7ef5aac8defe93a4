import type { RunbookInfo } from '../engine/types.ts';
import type { Job } from '../queue/job.ts';
import type { Trigger } from '../triggers/types.ts';
import { type AdmitContext, admit, recordResolved } from './admit.ts';
import { approvalDedupeKey, decideApproval, rejectedRecord } from './approval.ts';
import { withCheckedParams } from './params.ts';
import { routeTrigger } from './route.ts';

export interface DispatchContext extends AdmitContext {
  runbooks: readonly string[];
  /** Whether each runbook writes, and its params schema: every job's params are checked before it queues. */
  runbookInfo: readonly RunbookInfo[];
  newId: () => string;
}

export interface Dispatched {
  queued: Job[];
  duplicates: Job[];
  /** Automatic jobs waiting for the follow-up of their pair's run in progress. */
  absorbed: Job[];
  /** (cluster, runbook) pairs whose alerts resolved: recorded, nothing run. */
  resolved: Job[];
  /** Why parts of the trigger went nowhere, said back to the sender. */
  skipped: string[];
  /** Jobs refused for lack of authority (a Slack user who is not an approver asked for a write). */
  refused: string[];
}

const NOTHING: Dispatched = {
  queued: [],
  duplicates: [],
  absorbed: [],
  resolved: [],
  skipped: [],
  refused: [],
};

/**
 * The whole way from a parsed trigger to queued jobs: route, check params, then admit (dedupe,
 * record, queue). Approvals resume their run instead. Nothing here waits for a cluster. Throws a
 * ParamsError (a TriggerError: 400 on HTTP) when a param does not pass its runbook's schema.
 */
export async function dispatchTrigger(trigger: Trigger, context: DispatchContext): Promise<Dispatched> {
  if (trigger.approval) {
    const decision = await decideApproval(trigger, {
      config: context.config,
      runs: context.store.runs,
      newId: context.newId,
      now: context.now,
      ...(context.directory ? { directory: context.directory } : {}),
    });
    if (decision.kind === 'refused') return { ...NOTHING, refused: [decision.reason] };
    if (decision.kind === 'rejected') {
      // A rejection takes the same dedupe key as a resume: whichever click comes first decides.
      const ttlSeconds = context.config.limits.dedupeMinutes * 60;
      const key = approvalDedupeKey(decision.runId);
      if (!(await context.store.dedupe.claim(key, ttlSeconds, context.now())))
        return { ...NOTHING, skipped: [`run ${decision.runId} was already decided`] };
      const record = await context.store.runs.get(decision.runId);
      if (record)
        await context.store.runs.advance(rejectedRecord(record, trigger.actor, context.now()), {
          status: [record.status],
          jobId: record.jobId,
        });
      return { ...NOTHING, skipped: [`run ${decision.runId} rejected`] };
    }
    return { ...NOTHING, ...(await admit([decision.job], context)) };
  }
  const routed = routeTrigger(trigger, context);
  // Before anything is claimed or queued: a bad param throws a ParamsError for the sender.
  const admission = await admit(withCheckedParams(routed.jobs, context.runbookInfo), context);
  await recordResolved(routed.resolved, context);
  return { ...admission, resolved: routed.resolved, skipped: routed.skipped };
}
