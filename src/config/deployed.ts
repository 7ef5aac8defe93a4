import { ConfigError, type ParseOptions, readConfigFile, validateConfig } from './check.ts';
import type { ResponderConfig } from './schema.ts';

/**
 * The config as the stack ships it beside each function: checked at synth (file, line, field) and
 * written as JSON, so a cold start parses it without loading a YAML parser.
 */
export const DEPLOYED_CONFIG_FILE = 'responder.config.json';

/** The deployed file's text: the validated config, defaults filled in. */
export function deployedConfigText(config: ResponderConfig): string {
  return `${JSON.stringify(config)}\n`;
}

/** Reads and validates a deployed (JSON) config; a problem names the file and the field. */
export async function loadDeployedConfig(path: string, options: ParseOptions = {}): Promise<ResponderConfig> {
  const text = await readConfigFile(path);
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(`${path}: not JSON (${(error as Error).message})`);
  }
  return validateConfig(data, options, () => path);
}
