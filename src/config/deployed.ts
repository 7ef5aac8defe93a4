import { fieldOf } from '../validation/issues.ts';
import { ConfigError, type ParseOptions, readConfigFile, unknownRunbooks } from './check.ts';
import type { ResponderConfig } from './schema.ts';

/**
 * The config as the stack ships it beside each function: validated at synth (the file's problems
 * said at their lines there) and written as JSON, defaults filled in (deployed-text.ts), so a cold
 * start neither loads a YAML parser nor builds and runs the config's schema.
 */
export const DEPLOYED_CONFIG_FILE = 'responder.config.json';

/**
 * Reads a deployed (JSON) config; with `runbooks`, its routes' and schedules' runbooks are checked
 * against the ones this function knows (checkDeployedConfig). A problem is a ConfigError naming the
 * file and the field.
 */
export async function loadDeployedConfig(path: string, options: ParseOptions = {}): Promise<ResponderConfig> {
  const text = await readConfigFile(path);
  let config: ResponderConfig;
  try {
    config = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(`${path}: not JSON (${(error as Error).message})`);
  }
  checkDeployedConfig(path, config, options);
  return config;
}

/** Throws a ConfigError naming each field of the config read from `path` that `options` refuses. */
export function checkDeployedConfig(path: string, config: ResponderConfig, options: ParseOptions): void {
  const problems = [
    ...(options.runbooks ? unknownRunbooks(config, options.runbooks) : []),
    ...(options.checks?.(config) ?? []),
  ];
  if (problems.length > 0)
    throw new ConfigError(
      problems
        .map(({ path: at, message }) => `${path}: ${fieldOf(at, { indices: 'dotted' })}: ${message}`)
        .join('\n'),
    );
}
