import { readFile } from 'node:fs/promises';
import { isNode, LineCounter, parseDocument } from 'yaml';
import { ConfigSchema, type ResponderConfig } from './schema.ts';

/** A config file that does not parse or validate; the message names the line and the field. */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

/** Parses and validates config YAML; `source` names the file in messages. */
export function parseConfig(text: string, source = 'config'): ResponderConfig {
  const lineCounter = new LineCounter();
  const document = parseDocument(text, { lineCounter, prettyErrors: false });
  const syntax = document.errors[0];
  if (syntax) {
    const { line } = lineCounter.linePos(syntax.pos[0]);
    throw new ConfigError(`${source}:${line}: ${syntax.message.split('\n')[0]}`);
  }
  const parsed = ConfigSchema.safeParse(document.toJS());
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => {
    // Point at the deepest node of the path that exists in the file.
    let node: unknown;
    for (let depth = issue.path.length; depth >= 0 && !isNode(node); depth--) {
      node = document.getIn(issue.path.slice(0, depth) as (string | number)[], true);
    }
    const offset = isNode(node) && node.range ? node.range[0] : 0;
    const field = issue.path.join('.') || '(top level)';
    return `${source}:${lineCounter.linePos(offset).line}: ${field}: ${issue.message}`;
  });
  throw new ConfigError(problems.join('\n'));
}

export async function loadConfig(path: string): Promise<ResponderConfig> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new ConfigError(
      `cannot read config ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`,
    );
  }
  return parseConfig(text, path);
}
