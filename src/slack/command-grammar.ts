import { DEFAULT_SLASH_COMMAND } from '../config/slash-command.ts';
import type { Mode } from '../engine/types.ts';
import { TriggerError } from '../validation/trigger-error.ts';

/**
 * What a slash command's text asks for. `Cluster` is `string | undefined` as typed (a cluster
 * may be left out) and `string` once resolved against the config (see command.ts).
 */
export type CommandRequest<Cluster extends string | undefined = string> =
  | { verb: 'help' }
  | { verb: 'list' }
  | { verb: 'run'; runbook: string; cluster: Cluster; mode: Mode; params: Record<string, string> }
  | { verb: 'status'; cluster: Cluster }
  /** Without a cluster when several are configured: the runs on every one. */
  | { verb: 'history'; cluster: string | undefined }
  | { verb: 'brake-reset'; cluster: string };

/** A command as typed, before its cluster and runbook are checked against the config. */
export type TypedCommand = CommandRequest<string | undefined>;

/** Each verb's form, after the command name. */
export const USAGE = {
  help: 'help',
  list: 'list',
  run: 'run <runbook|all> [cluster] [--apply] [key=value...]',
  status: 'status [cluster]',
  history: 'history [cluster]',
  'brake-reset': 'brake reset <cluster>',
} as const satisfies Record<CommandRequest['verb'], string>;

export type Verb = keyof typeof USAGE;

/**
 * A mistake in what a person typed: names the field (`runbook`, `cluster`, `mode`, `text`...)
 * and ends with the usage of the verb. Answered to that person only, never a 4xx.
 */
export class CommandError extends TriggerError {
  constructor(field: string, problem: string, usage: string) {
    super(field, `${problem}. Usage: \`${usage}\``);
    this.name = 'CommandError';
  }
}

/** `/cilium run <runbook|all> ...`: a verb's usage under the command's name. */
export function usageOf(command: string, verb: Verb): string {
  return `${command} ${USAGE[verb]}`;
}

const MODES: readonly Mode[] = ['auto', 'dry-run', 'approve'];
const APPLY = '--apply';

const isWord = (token: string) => !token.startsWith('-') && !token.includes('=');

function parseRun(args: readonly string[], fail: (field: string, problem: string) => never): TypedCommand {
  const [runbook, ...rest] = args;
  if (!runbook || !isWord(runbook)) fail('runbook', 'missing <runbook> (a runbook id, or all)');
  let cluster: string | undefined;
  let apply = false;
  let mode: Mode | undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < rest.length; i++) {
    const token = rest[i] as string;
    if (token === 'on' && i === 0) {
      const next = rest[i + 1];
      if (!next || !isWord(next)) fail('cluster', 'missing <cluster> after "on"');
      continue;
    }
    if (token === APPLY) {
      if (apply) fail(APPLY, `"${APPLY}" is given twice`);
      apply = true;
    } else if (token.startsWith('-')) {
      fail('text', `unknown option "${token}"; the only option is ${APPLY}`);
    } else if (isWord(token)) {
      if (cluster !== undefined) fail('cluster', `one cluster only, not "${cluster}" and "${token}"`);
      cluster = token;
    } else {
      const equals = token.indexOf('=');
      if (equals < 1) fail('text', `"${token}" is not key=value`);
      const key = token.slice(0, equals);
      const value = token.slice(equals + 1);
      if (key === 'mode') {
        if (mode !== undefined) fail('mode', 'mode is given twice');
        mode = MODES.find((candidate) => candidate === value);
        if (!mode) fail('mode', `mode must be one of ${MODES.join(', ')}, not "${value}"`);
      } else {
        if (key in params) fail(key, `"${key}" is given twice`);
        params[key] = value;
      }
    }
  }
  // `mode=auto` is the older spelling of --apply; people get a plan, not a change, unless they ask.
  if (apply && mode !== undefined && mode !== 'auto') fail('mode', `${APPLY} contradicts mode=${mode}`);
  return {
    verb: 'run',
    runbook: runbook as string,
    cluster,
    mode: apply ? 'auto' : (mode ?? 'dry-run'),
    params,
  };
}

/** At most one cluster (`required`: exactly one), nothing else. */
function parseCluster(
  args: readonly string[],
  required: boolean,
  fail: (field: string, problem: string) => never,
): string | undefined {
  const [cluster, ...extra] = args;
  if (required && !cluster) fail('cluster', 'missing <cluster>');
  if (extra.length > 0) fail('text', `unexpected "${extra.join(' ')}"`);
  return cluster;
}

function noArguments(args: readonly string[], fail: (field: string, problem: string) => never): void {
  if (args.length > 0) fail('text', `unexpected "${args.join(' ')}"`);
}

/**
 * The grammar of `/cilium <text>` (the command's name is the config's `slack.command`):
 *   help            (also an empty text)
 *   list
 *   run <runbook|all> [on] [cluster] [--apply] [key=value...]   (mode=auto|approve|dry-run too)
 *   status [cluster]
 *   history [cluster]
 *   brake reset <cluster>
 * A run is a dry run unless `--apply` (or `mode=auto`). A cluster left out is resolved later.
 * Param values stay strings; admission reads them as each runbook's schema wants (src/params/text.ts).
 */
export function parseCommandText(text: string, command = DEFAULT_SLASH_COMMAND): TypedCommand {
  const [word = 'help', ...args] = text.trim().split(/\s+/).filter(Boolean);
  const failFor =
    (verb: Verb) =>
    (field: string, problem: string): never => {
      throw new CommandError(field, problem, usageOf(command, verb));
    };
  switch (word.toLowerCase()) {
    case 'help':
      noArguments(args, failFor('help'));
      return { verb: 'help' };
    case 'list':
      noArguments(args, failFor('list'));
      return { verb: 'list' };
    case 'run':
      return parseRun(args, failFor('run'));
    case 'status':
      return { verb: 'status', cluster: parseCluster(args, false, failFor('status')) };
    case 'history':
      return { verb: 'history', cluster: parseCluster(args, false, failFor('history')) };
    case 'brake': {
      const fail = failFor('brake-reset');
      if (args[0] !== 'reset') fail('text', 'missing "reset"');
      return { verb: 'brake-reset', cluster: parseCluster(args.slice(1), true, fail) as string };
    }
    default:
      throw new CommandError(
        'text',
        `unknown command "${word}"; use help, list, run, status, history or brake reset`,
        `${command} help`,
      );
  }
}
