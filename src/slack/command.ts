import * as z from 'zod';
import { deliveryKey } from '../triggers/delivery-key.ts';
import type { EdgeFacts } from '../triggers/edge.ts';
import type { Trigger } from '../triggers/types.ts';
import { HttpsUrl, NonEmpty, parseWith } from '../triggers/validate.ts';
import {
  CommandError,
  type CommandRequest,
  parseCommandText,
  type TypedCommand,
  usageOf,
} from './command-grammar.ts';

/**
 * The form fields of a slash command request (already URL-decoded by the edge). `token` is
 * Slack's deprecated verification token: the signature check at the edge replaces it.
 */
export const SlashCommandFormSchema = z.lazy(() =>
  z.object({
    team_id: NonEmpty,
    channel_id: NonEmpty,
    user_id: NonEmpty,
    user_name: z.string().optional(),
    text: z.string(),
    response_url: HttpsUrl,
    trigger_id: NonEmpty,
  }),
);

/** What a command is checked against: its name (for usage), the configured clusters, the runbook ids. */
export interface CommandContext {
  command: string;
  clusters: readonly string[];
  runbooks: readonly string[];
}

/** A parsed slash command: what it asks for, and the Trigger that records who asked, where. */
export interface SlackCommand {
  request: CommandRequest;
  trigger: Trigger;
}

const known = (names: readonly string[]) => names.join(', ') || 'none';

/** The cluster a command means: the one named, or the only one configured. */
function resolveCluster(cluster: string | undefined, request: TypedCommand, context: CommandContext): string {
  const usage = usageOf(context.command, request.verb);
  const { clusters } = context;
  if (cluster === undefined) {
    if (clusters.length === 1) return clusters[0] as string;
    if (clusters.length === 0) throw new CommandError('cluster', 'no cluster is configured', usage);
    throw new CommandError(
      'cluster',
      `missing; ${clusters.length} clusters are configured: ${known(clusters)}`,
      usage,
    );
  }
  if (!clusters.includes(cluster))
    throw new CommandError('cluster', `no cluster "${cluster}"; known: ${known(clusters)}`, usage);
  return cluster;
}

/** The request with its cluster and runbook checked against the config. */
export function resolveCommand(request: TypedCommand, context: CommandContext): CommandRequest {
  switch (request.verb) {
    case 'help':
    case 'list':
      return request;
    case 'run': {
      const { runbook } = request;
      if (runbook !== 'all' && !context.runbooks.includes(runbook))
        throw new CommandError(
          'runbook',
          `no runbook "${runbook}"; known: ${known([...context.runbooks, 'all'])}`,
          usageOf(context.command, 'run'),
        );
      return { ...request, cluster: resolveCluster(request.cluster, request, context) };
    }
    case 'history':
      if (request.cluster === undefined && context.clusters.length !== 1) return request;
      return { ...request, cluster: resolveCluster(request.cluster, request, context) };
    case 'status':
    case 'brake-reset':
      return { ...request, cluster: resolveCluster(request.cluster, request, context) };
  }
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
      // A look at the cluster: every runbook, as a plan.
      return { cluster: request.cluster, runbook: 'all', mode: 'dry-run', params: {} };
    case 'history':
      return request.cluster === undefined ? {} : { cluster: request.cluster };
    case 'brake-reset':
      return { cluster: request.cluster };
    case 'help':
    case 'list':
      return {};
  }
}

/**
 * A `/cilium ...` invocation. The deliveryKey comes from trigger_id, unique per invocation:
 * a retried request carries the same body, so it gets the same key and admission runs it once.
 * Mistakes in the text throw a CommandError (answered to the person); bad form fields a TriggerError.
 */
export function parseSlashCommand(form: unknown, edge: EdgeFacts, context: CommandContext): SlackCommand {
  const command = parseWith(SlashCommandFormSchema, form);
  const request = resolveCommand(parseCommandText(command.text, context.command), context);
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
