import { readFile } from 'node:fs/promises';
import { type Document, isMap, isNode, isScalar, LineCounter, parseDocument } from 'yaml';
import { fieldOf, issueLine, issuesOf } from '../validation/issues.ts';
import { ConfigSchema, type ResponderConfig } from './schema.ts';

/** A config file that does not parse or validate; the message names the line and the field. */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

/** A problem a check finds in a valid config, at the field it names. */
export interface ConfigProblem {
  /** Where in the config, e.g. `['routes', 0, 'runbook']`. */
  path: (string | number)[];
  /** What is wrong, for the person editing the file. */
  message: string;
}

/** What a config is checked against beyond its schema. */
export interface ParseOptions {
  /** Runbook ids routes and schedules may name (checked when given). */
  runbooks?: readonly string[];
  /** More checks of a valid config (the deploy's, at synth), reported like the schema's: file, line, field. */
  checks?: (config: ResponderConfig) => ConfigProblem[];
}

/** Runbook names the config uses that do not exist, with their paths. */
function unknownRunbooks(config: ResponderConfig, known: readonly string[]): ConfigProblem[] {
  const valid = new Set([...known, 'all']);
  const named = [
    ...config.routes.map((route, i) => ({ path: ['routes', i, 'runbook'], id: route.runbook })),
    ...config.schedules.flatMap((schedule, i) =>
      (schedule.runbooks ?? []).map((id, j) => ({ path: ['schedules', i, 'runbooks', j], id })),
    ),
  ];
  return named
    .filter(({ id }) => !valid.has(id))
    .map(({ path, id }) => ({ path, message: `unknown runbook "${id}"; known: ${known.join(', ')}` }));
}

/** Where the deepest part of `path` that exists in the file starts: a map entry's key, or the node. */
function offsetOf(document: Document, path: (string | number)[]): number {
  for (let depth = path.length; depth >= 0; depth--) {
    const parent = depth > 0 ? document.getIn(path.slice(0, depth - 1), true) : undefined;
    const pair = isMap(parent)
      ? parent.items.find((item) => isScalar(item.key) && item.key.value === path[depth - 1])
      : undefined;
    const node = pair?.key ?? document.getIn(path.slice(0, depth), true);
    if (isNode(node) && node.range) return node.range[0];
  }
  return 0;
}

/** Parses and validates config YAML; `source` names the file in messages, which name line and field. */
export function parseConfig(text: string, source = 'config', options: ParseOptions = {}): ResponderConfig {
  const lineCounter = new LineCounter();
  const document = parseDocument(text, { lineCounter, prettyErrors: false });
  const syntax = document.errors[0];
  if (syntax) {
    const { line } = lineCounter.linePos(syntax.pos[0]);
    throw new ConfigError(`${source}:${line}: ${syntax.message.split('\n')[0]}`);
  }
  const parsed = ConfigSchema.safeParse(document.toJS());
  if (parsed.success && !options.runbooks && !options.checks) return parsed.data;
  const style = { indices: 'dotted', root: '(top level)' } as const;
  const found = (config: ResponderConfig) => [
    ...(options.runbooks ? unknownRunbooks(config, options.runbooks) : []),
    ...(options.checks?.(config) ?? []),
  ];
  const issues = parsed.success
    ? found(parsed.data).map(({ path, message }) => ({
        path,
        field: fieldOf(path, style),
        problem: message,
      }))
    : issuesOf(parsed.error, style);
  if (parsed.success && issues.length === 0) return parsed.data;
  const problems = issues.map((issue) => {
    const line = lineCounter.linePos(offsetOf(document, issue.path as (string | number)[])).line;
    return `${source}:${line}: ${issueLine(issue)}`;
  });
  throw new ConfigError(problems.join('\n'));
}

export async function loadConfig(path: string, options: ParseOptions = {}): Promise<ResponderConfig> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new ConfigError(
      `cannot read config ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`,
    );
  }
  return parseConfig(text, path, options);
}
