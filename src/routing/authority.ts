import type { ApproverDirectory } from '../chat/types.ts';
import type { ResponderConfig } from '../config/schema.ts';
import type { RunbookInfo } from '../engine/types.ts';
import type { Job } from '../queue/job.ts';
import { isApprover } from './approval.ts';

export interface AuthorityContext {
  config: ResponderConfig;
  directory?: ApproverDirectory;
  /** Which runbooks have a step that writes; without it every runbook is taken to write. */
  runbookInfo?: readonly RunbookInfo[];
}

/**
 * Why this job may not run, or undefined when it may. A run that can write (auto, or an approved
 * resume) needs the authority its source gives: the config's routes and schedules for alerts and
 * sweeps (their senders are authenticated at the edge), the local user for the CLI, and an
 * approver for a person in Slack. Plans (dry-run, approve before approval) need none, and neither
 * does a runbook no step of which writes: `--apply` on it changes nothing.
 */
export async function refusal(job: Job, context: AuthorityContext): Promise<string | undefined> {
  if (job.mode === 'dry-run') return undefined;
  if (context.runbookInfo?.find((info) => info.id === job.runbook)?.writes === false) return undefined;
  const { actor, source } = job.trigger;
  if (source !== 'slack-command' && source !== 'slack-action') return undefined;
  const planOnly = job.mode === 'approve' && !job.resume;
  const setParams = Object.keys(job.trigger.params ?? {});
  // Anyone may ask for a plan with the configured params. Params a person sets decide what a
  // write plan covers (`gracePeriodSeconds=0` adds pods seconds old), and an approver clicking
  // Approve on a list of pods cannot tell what a bystander widened: so on a run that may write,
  // only an approver sets them. (The approval message still shows every param and who set it.)
  if (planOnly && setParams.length === 0) return undefined;
  if (await isApprover(context.config, actor.id, job.runbook, context.directory)) return undefined;
  if (planOnly)
    return `<@${actor.id}> is not an approver of ${job.runbook}: only approvers may set params (${setParams.join(', ')}) on a plan that can change the cluster; leave them out, or ask an approver`;
  return `<@${actor.id}> is not an approver of ${job.runbook}: a run that changes the cluster needs one (approvers.${job.runbook} or approvers."*" in the config)`;
}
