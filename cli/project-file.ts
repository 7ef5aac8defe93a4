import { existsSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * A file shipped with the project (the example config), found from wherever this code runs: the
 * TypeScript source under cli/ or the built bundle under dist/.
 */
export function projectFile(name: string): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`cannot find the project's ${name}`);
    dir = parent;
  }
  return join(dir, name);
}

/** How to get a config `file`, naming the example this package ships where it really is. */
export function configHint(file: string): string {
  const example = relative(process.cwd(), projectFile('responder.config.example.yaml'));
  return `run \`responder init\` to write one, or copy ${example} to ${file} and edit it`;
}
