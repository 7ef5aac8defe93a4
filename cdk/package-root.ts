import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The package's root folder, found from this module whether it runs from the sources (cdk/) or
 * from the library bundle (dist/lib/) in a team's node_modules: the functions are bundled from it.
 */
export function packageRoot(from: string = fileURLToPath(import.meta.url)): string {
  let dir = dirname(from);
  while (!existsSync(join(dir, 'functions', 'worker-handler.ts'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`cilium-responder's functions/ not found above ${from}`);
    dir = parent;
  }
  return dir;
}
