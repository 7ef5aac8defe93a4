import { z } from 'zod';
import { deliveryKey } from '../triggers/delivery-key.ts';
import type { EdgeFacts } from '../triggers/edge.ts';
import type { Trigger } from '../triggers/types.ts';
import { HttpsUrl, NonEmpty, parseWith } from '../triggers/validate.ts';
import { type CommandRequest, parseCommandText } from './command-grammar.ts';

/**
 * The form fields of a slash command request (already URL-decoded by the edge). `token` is
 * Slack's deprecated verification token: the signature check at the edge replaces it.
 */
export const SlashCommandFormSchema = z.object({
  team_id: NonEmpty,
  channel_id: NonEmpty,
  user_id: NonEmpty,
  user_name: z.string().optional(),
  text: z.string(),
  response_url: HttpsUrl,
  trigger_id: NonEmpty,
});

/** A parsed slash command: what it asks for, and the Trigger that records who asked, where. */
export interface SlackCommand {
  request: CommandRequest;
  trigger: Trigger;
}

function requestFields(request: CommandRequest): Pick<Trigger, 'cluster' | 'runbook' | 'mode' | 'params'> {
  switch (request.verb) {
    case 'run':
      return {
        cluster: request.cluster,
        runbook: request.runbook,
        mode: request.mode,
        params: request.params,
      };
    case 'status':
    case 'brake-reset':
      return { cluster: request.cluster };
    case 'help':
      return {};
  }
}

/**
 * A `/responder ...` invocation. The deliveryKey comes from trigger_id, unique per invocation:
 * a retried request carries the same body, so it gets the same key and admission runs it once.
 */
export function parseSlashCommand(form: unknown, edge: EdgeFacts): SlackCommand {
  const command = parseWith(SlashCommandFormSchema, form);
  const request = parseCommandText(command.text);
  return {
    request,
    trigger: {
      source: 'slack-command',
      receivedAt: edge.receivedAt.toISOString(),
      deliveryKey: deliveryKey('slack-command', [command.team_id, command.trigger_id]),
      alerts: [],
      ...requestFields(request),
      actor: { kind: 'user', id: command.user_id, name: command.user_name },
      reply: { channel: command.channel_id, responseUrl: command.response_url },
    },
  };
}
