import { readFile } from 'node:fs/promises';
import type { ResponderConfig } from './schema.ts';

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
export function unknownRunbooks(config: ResponderConfig, known: readonly string[]): ConfigProblem[] {
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

/** A config file's text; one that cannot be read is a ConfigError naming the file and why. */
export async function readConfigFile(path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    throw new ConfigError(
      `cannot read config ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`,
    );
  }
}
