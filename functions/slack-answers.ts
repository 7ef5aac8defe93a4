import { isApprover } from '../src/routing/approval.ts';
import { type DispatchContext, dispatchTrigger } from '../src/routing/dispatch.ts';
import type { SlackCommand } from '../src/slack/index.ts';

interface SlackAnswer {
  response_type: 'ephemeral' | 'in_channel';
  text: string;
}

const HELP = [
  '`/responder run <runbook|all> [on] <cluster> [mode=auto|dry-run|approve]`: run a runbook (dry-run unless you ask)',
  '`/responder status <cluster>`: the brake and the last runs',
  '`/responder brake reset <cluster>`: let cluster writes go again (approvers only)',
].join('\n');

const ephemeral = (text: string): SlackAnswer => ({ response_type: 'ephemeral', text });

/** What a slash command does and says back; queuing only, so the answer is immediate. */
export async function slackCommandAnswer(
  command: SlackCommand,
  context: DispatchContext,
): Promise<SlackAnswer> {
  const { request, trigger } = command;
  switch (request.verb) {
    case 'help':
      return ephemeral(HELP);
    case 'status': {
      const { maxWrites, windowMinutes } = context.config.limits.brake;
      const brake = await context.store.brake.state(
        request.cluster,
        maxWrites,
        windowMinutes * 60,
        context.now(),
      );
      const runs = await context.store.runs.list({ cluster: request.cluster, limit: 5 });
      const lines = runs.map(
        (r) => `• ${r.runbook} (${r.mode}, ${r.source}): ${r.verdict ?? r.status}, ${r.queuedAt}`,
      );
      return ephemeral(
        [
          `*${request.cluster}*: brake ${brake.engaged ? 'ENGAGED' : 'off'} (${brake.used}/${brake.limit} writes this window)`,
          ...lines,
        ].join('\n'),
      );
    }
    case 'brake-reset': {
      if (!(await isApprover(context.config, trigger.actor.id, undefined, context.directory)))
        return ephemeral(`<@${trigger.actor.id}> is not an approver: ask one to reset the brake.`);
      await context.store.brake.reset(request.cluster);
      return {
        response_type: 'in_channel',
        text: `Brake on ${request.cluster} reset by <@${trigger.actor.id}>: cluster writes may go again.`,
      };
    }
    case 'run': {
      const result = await dispatchTrigger(trigger, context);
      if (result.queued.length > 0) {
        const what = result.queued.map((job) => job.runbook).join(', ');
        return ephemeral(
          `Queued ${what} on ${request.cluster} (${request.mode}). The report will be posted in the cluster's channel.`,
        );
      }
      if (result.duplicates.length > 0) return ephemeral('Already queued: this request was received before.');
      return ephemeral(`Nothing to run: ${result.skipped.join('; ')}`);
    }
  }
}
