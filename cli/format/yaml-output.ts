import { stringify } from 'yaml';

/** -o yaml's text, in a module of its own so that only -o yaml loads the YAML library. */
export function yamlText(value: unknown): string {
  return stringify(value);
}
