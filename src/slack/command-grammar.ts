import type { Mode } from '../engine/types.ts';
import { TriggerError } from '../triggers/errors.ts';

/** What a slash command's text asks for. */
export type CommandRequest =
  | { verb: 'run'; runbook: string; cluster: string; mode: Mode; params: Record<string, string> }
  | { verb: 'status'; cluster: string }
  | { verb: 'brake-reset'; cluster: string }
  | { verb: 'help' };

const RUN_USAGE = 'run <runbook|all> [on] <cluster> [mode=auto|dry-run|approve] [key=value...]';
const STATUS_USAGE = 'status <cluster>';
const BRAKE_USAGE = 'brake reset <cluster>';
const MODES: readonly Mode[] = ['auto', 'dry-run', 'approve'];

function usage(what: string, form: string): TriggerError {
  return new TriggerError('text', `${what}; expected "${form}"`);
}

function parseMode(value: string): Mode {
  const mode = MODES.find((candidate) => candidate === value);
  if (!mode) throw new TriggerError('text', `mode must be one of ${MODES.join(', ')}, not "${value}"`);
  return mode;
}

function parseRun(args: readonly string[]): CommandRequest {
  const [runbook, ...rest] = args;
  if (!runbook) throw usage('missing <runbook>', RUN_USAGE);
  const [cluster, ...options] = rest[0] === 'on' ? rest.slice(1) : rest;
  if (!cluster) throw usage('missing <cluster>', RUN_USAGE);
  // People get a plan, not a change, unless they ask for one.
  let mode: Mode = 'dry-run';
  const params: Record<string, string> = {};
  const seen = new Set<string>();
  for (const option of options) {
    const equals = option.indexOf('=');
    if (equals < 1) throw usage(`"${option}" is not key=value`, RUN_USAGE);
    const key = option.slice(0, equals);
    const value = option.slice(equals + 1);
    if (seen.has(key)) throw new TriggerError('text', `"${key}" is given twice`);
    seen.add(key);
    if (key === 'mode') mode = parseMode(value);
    else params[key] = value;
  }
  return { verb: 'run', runbook, cluster, mode, params };
}

function parseCluster(args: readonly string[], verb: 'status' | 'brake-reset', form: string): CommandRequest {
  const [cluster, ...extra] = args;
  if (!cluster) throw usage('missing <cluster>', form);
  if (extra.length > 0) throw usage(`unexpected "${extra.join(' ')}"`, form);
  return { verb, cluster };
}

/**
 * The grammar of `/responder <text>`:
 *   run <runbook|all> [on] <cluster> [mode=auto|dry-run|approve] [key=value...]
 *   status <cluster>
 *   brake reset <cluster>
 *   help            (also an empty text)
 * Param values stay strings; each runbook's params schema coerces them.
 */
export function parseCommandText(text: string): CommandRequest {
  const [verb = 'help', ...args] = text.trim().split(/\s+/).filter(Boolean);
  switch (verb.toLowerCase()) {
    case 'help':
      if (args.length > 0) throw usage(`unexpected "${args.join(' ')}"`, 'help');
      return { verb: 'help' };
    case 'run':
      return parseRun(args);
    case 'status':
      return parseCluster(args, 'status', STATUS_USAGE);
    case 'brake':
      if (args[0] !== 'reset') throw usage('missing "reset"', BRAKE_USAGE);
      return parseCluster(args.slice(1), 'brake-reset', BRAKE_USAGE);
    default:
      throw new TriggerError('text', `unknown command "${verb}"; use run, status, brake reset or help`);
  }
}
