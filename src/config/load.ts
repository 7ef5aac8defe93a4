import { type Document, isMap, isNode, isScalar, LineCounter, parseDocument } from 'yaml';
import { ConfigError, type ParseOptions, readConfigFile } from './check.ts';
import type { ResponderConfig } from './schema.ts';
import { validateConfig } from './validate.ts';

export { ConfigError, type ConfigProblem, type ParseOptions } from './check.ts';

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
  return validateConfig(document.toJS(), options, (path) => {
    const { line } = lineCounter.linePos(offsetOf(document, path));
    return `${source}:${line}`;
  });
}

export async function loadConfig(path: string, options: ParseOptions = {}): Promise<ResponderConfig> {
  return parseConfig(await readConfigFile(path), path, options);
}
