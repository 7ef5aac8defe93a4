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
  if (job.mode === 'dry-run' || (job.mode === 'approve' && !job.resume)) return undefined;
  if (context.runbookInfo?.find((info) => info.id === job.runbook)?.writes === false) return undefined;
  const { actor, source } = job.trigger;
  if (source !== 'slack-command' && source !== 'slack-action') return undefined;
  if (await isApprover(context.config, actor.id, job.runbook, context.directory)) return undefined;
  return `<@${actor.id}> is not an approver of ${job.runbook}: a run that changes the cluster needs one (approvers.${job.runbook} or approvers."*" in the config)`;
}
