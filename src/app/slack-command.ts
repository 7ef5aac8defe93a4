import type { SlackCommand } from '../slack/command.ts';
import type { App } from './app.ts';

export interface SlackAnswer {
  response_type: 'ephemeral' | 'in_channel';
  text: string;
}

const HELP = [
  '`/responder run <runbook|all> [on] <cluster> [mode=auto|dry-run|approve]`: run a runbook (dry-run unless you ask; auto needs an approver)',
  '`/responder status <cluster>`: the brake and the last runs',
  '`/responder brake reset <cluster>`: let cluster writes go again (approvers only)',
].join('\n');

const ephemeral = (text: string): SlackAnswer => ({ response_type: 'ephemeral', text });

/** What a slash command does and says back; it only queues, so the answer is immediate. */
export async function answerSlashCommand(command: SlackCommand, app: App): Promise<SlackAnswer> {
  const { request, trigger } = command;
  switch (request.verb) {
    case 'help':
      return ephemeral(HELP);
    case 'status': {
      const brake = await app.brakeState(request.cluster);
      const runs = await app.history({ cluster: request.cluster, limit: 5 });
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
      const result = await app.resetBrake(request.cluster, trigger);
      if (!result.reset) return ephemeral(result.refusal);
      return {
        response_type: 'in_channel',
        text: `Brake on ${request.cluster} reset by <@${trigger.actor.id}>: cluster writes may go again.`,
      };
    }
    case 'run': {
      const result = await app.dispatch(trigger);
      if (result.queued.length > 0) {
        const what = result.queued.map((job) => job.runbook).join(', ');
        return ephemeral(
          `Queued ${what} on ${request.cluster} (${request.mode}). The report will be posted in the cluster's channel.`,
        );
      }
      if (result.refused.length > 0) return ephemeral(`Not run: ${result.refused.join('; ')}`);
      if (result.duplicates.length > 0) return ephemeral('Already queued: this request was received before.');
      return ephemeral(`Nothing to run: ${result.skipped.join('; ')}`);
    }
  }
}
