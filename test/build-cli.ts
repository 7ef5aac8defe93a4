import { execFileSync } from 'node:child_process';

/** Vitest global setup: the CLI tests run `bin/responder.js`, which runs the build in dist/; build it fresh. */
export default function setup(): void {
  execFileSync(process.execPath, ['scripts/build-cli.mjs'], { stdio: 'inherit' });
}
