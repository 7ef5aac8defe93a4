import { ParamsError } from '../params/check.ts';
import { pairHolder } from '../routing/follow-up.ts';
import { type CommandContext, parseSlashCommand, type SlackCommand } from '../slack/command.ts';
import { CommandError, type CommandRequest, USAGE, usageOf, type Verb } from '../slack/command-grammar.ts';
import type { RunRecord } from '../store/types.ts';
import type { EdgeFacts } from '../triggers/edge.ts';
import { leaseKeyOf } from '../worker/run-job.ts';
import type { App } from './app.ts';

export interface SlackAnswer {
  response_type: 'ephemeral' | 'in_channel';
  text: string;
}

const WHAT: Record<Verb, string> = {
  help: 'this help',
  list: 'the runbooks, and which ones change the cluster',
  run: 'run a runbook: a dry run (a plan) unless --apply; --apply on a runbook that writes needs an approver',
  status: 'the brake, and every runbook as a dry run (reports go to the channel)',
  history: 'the last runs',
  'brake-reset': 'let cluster writes go again (approvers only)',
};

const HISTORY_LIMIT = 10;

const ephemeral = (text: string): SlackAnswer => ({ response_type: 'ephemeral', text });

/** What the slash command is checked against: the configured name, clusters and runbooks. */
export function commandContext(app: App): CommandContext {
  const { config, runbookIds } = app.ports;
  return {
    command: config.slack.command,
    clusters: config.clusters.map((c) => c.name),
    runbooks: runbookIds,
  };
}

function helpText(command: string): string {
  const verbs = Object.keys(USAGE) as Verb[];
  return [
    ...verbs.map((verb) => `\`${usageOf(command, verb)}\`: ${WHAT[verb]}`),
    'Leave out [cluster] when only one is configured.',
  ].join('\n');
}

function listText(app: App): string {
  const { runbookIds, runbookInfo } = app.ports;
  return runbookIds
    .map((id) => {
      const info = runbookInfo?.find((entry) => entry.id === id);
      if (!info) return `• \`${id}\``;
      return `• \`${id}\`: ${info.title} (${info.writes ? 'writes: --apply needs an approver' : 'read-only'})`;
    })
    .join('\n');
}

/** `2025-06-02 03:00Z unmanaged-pods (dry-run): degraded, 3 found, 0 fixed, 3 open, 2 planned`, the cluster first when runs of several are listed */
function historyLine(run: RunRecord, withCluster: boolean): string {
  const at = `${run.queuedAt.slice(0, 16).replace('T', ' ')}Z`;
  const outcome = run.verdict ?? run.status;
  const { summary } = run;
  const counts = [
    ...(summary ? [`${summary.found} found, ${summary.fixed} fixed, ${summary.open} open`] : []),
    `${run.plan.length} planned`,
  ];
  const what = withCluster ? `${run.cluster} ${run.runbook}` : run.runbook;
  return `• ${at} ${what} (${run.mode}, ${run.source}): ${outcome}, ${counts.join(', ')}`;
}

function channelOf(app: App, cluster: string): string {
  return app.ports.config.clusters.find((c) => c.name === cluster)?.channel ?? app.ports.defaultChannel;
}

const UNDER_WAY: ReadonlySet<RunRecord['status']> = new Set(['queued', 'running']);

/**
 * A run of `runbook` on `cluster` going on now, or queued to start (an alert's run holds its pair
 * from the moment it is queued), said so a person asking for one learns it at once: the run
 * answers their question within minutes, in its thread; a second run queued behind it would find
 * the pair busy when it starts, and end as a duplicate nobody hears of. Undefined when none is
 * under way.
 */
async function runInProgress(app: App, cluster: string, runbook: string): Promise<string | undefined> {
  const { store, chat, now } = app.ports;
  const holder = await store.leases.holder(leaseKeyOf({ cluster, runbook }), now());
  const job = holder ? (holder.owner.split('/')[0] as string) : await pairHolder(cluster, runbook, app.ports);
  if (!job) return undefined;
  const record = await store.runs.get(job);
  // A pair left held by a run that ended (its finisher stopped before giving it back) holds nobody.
  if (!holder && record && !UNDER_WAY.has(record.status)) return undefined;
  const started = holder !== undefined || record?.startedAt !== undefined;
  const at = record?.startedAt ?? record?.queuedAt;
  const who = record ? ` by ${record.actor} (${record.reason}) at ${at}` : '';
  const link = await chat.threadLink?.(`${cluster}/${runbook}`);
  const where = link ? `<${link}|its thread>` : channelOf(app, cluster);
  const [state, since] = started ? ['running', 'started'] : ['queued', 'queued'];
  return `Not queued: ${runbook} on ${cluster} is already ${state} (run ${record?.runId ?? job}, ${since}${who}). Its report will be posted in ${where}; ask again once it has ended for a run of your own.`;
}

/** Runs a command's trigger and says what was queued, or why nothing was. */
async function queue(command: SlackCommand, app: App, cluster: string, label: string): Promise<string> {
  const { request } = command;
  if (request.verb === 'run' && request.runbook !== 'all') {
    const busy = await runInProgress(app, cluster, request.runbook);
    if (busy) return busy;
  }
  const result = await app.dispatch(command.trigger);
  const said: string[] = [];
  if (result.queued.length > 0) {
    const what = result.queued.map((job) => job.runbook).join(', ');
    said.push(
      `Queued ${what} on ${cluster} (${label}). The report will be posted in ${channelOf(app, cluster)}.`,
    );
  }
  // `run all --apply` by a non-approver queues the read-only runbooks and refuses the rest.
  if (result.refused.length > 0) {
    // A plan with params a non-approver set says its own way out (leave them out).
    const applied = request.verb === 'run' && request.mode === 'auto';
    const advice = applied
      ? ' Ask an approver to run it with --apply, or leave out --apply for a dry run.'
      : '';
    said.push(`Not run: ${result.refused.join('; ')}.${advice}`);
  }
  if (said.length > 0) return said.join('\n');
  if (result.duplicates.length > 0) return 'Already queued: this request was received before.';
  return `Nothing to run: ${result.skipped.join('; ')}`;
}

/** What a slash command does and says back; it only reads the store and queues, so the answer is immediate. */
export async function answerSlashCommand(command: SlackCommand, app: App): Promise<SlackAnswer> {
  const request: CommandRequest = command.request;
  const { trigger } = command;
  switch (request.verb) {
    case 'help':
      return ephemeral(helpText(app.ports.config.slack.command));
    case 'list':
      return ephemeral(listText(app));
    case 'history': {
      const { cluster } = request;
      const { runs } = await app.history({ ...(cluster ? { cluster } : {}), limit: HISTORY_LIMIT });
      const where = cluster ?? 'any cluster';
      if (runs.length === 0) return ephemeral(`No runs on ${where} yet.`);
      const lines = runs.map((run) => historyLine(run, cluster === undefined));
      return ephemeral(
        [`*${cluster ?? 'Every cluster'}*: the last ${runs.length} runs`, ...lines].join('\n'),
      );
    }
    case 'status': {
      const brake = await app.brakeState(request.cluster);
      const queued = await queue(command, app, request.cluster, 'dry-run');
      return ephemeral(
        `*${request.cluster}*: brake ${brake.engaged ? 'ENGAGED' : 'off'} (${brake.used}/${brake.limit} writes this window)\n${queued}`,
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
    case 'run':
      return ephemeral(await queue(command, app, request.cluster, request.mode));
  }
}

/**
 * A slash command from its form to its answer. A mistake in the text (a param its runbook's schema
 * refuses too) is the person's to fix: it is answered to them only (Slack shows a 200 answer
 * ephemerally) and nothing is queued. Bad form fields throw, for a 400.
 */
export async function handleSlashCommand(form: unknown, edge: EdgeFacts, app: App): Promise<SlackAnswer> {
  try {
    return await answerSlashCommand(parseSlashCommand(form, edge, commandContext(app)), app);
  } catch (error) {
    if (error instanceof CommandError) return ephemeral(error.message);
    if (error instanceof ParamsError) return ephemeral(`${error.message}. Nothing was queued.`);
    throw error;
  }
}
