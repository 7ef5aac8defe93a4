import type { ResponderConfig } from './schema.ts';
import { validateConfig } from './validate.ts';

/**
 * The text of the config file the stack ships (deployed.ts): `config` checked against the schema
 * at synth, a problem naming its field after `source`, and written as JSON with its defaults.
 */
export function deployedConfigText(config: ResponderConfig, source = 'the config'): string {
  return `${JSON.stringify(validateConfig(config, {}, () => source))}\n`;
}
