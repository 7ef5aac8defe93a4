// Builds the `responder` command into dist/ (scripts/cli-build.mjs says how).
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { CLI_BUILD } from './cli-build.mjs';

// Only this build's files: dist/lib is the library's, and `npm pack` runs prepack (build:lib) before prepare (this).
for (const entry of existsSync('dist') ? readdirSync('dist', { withFileTypes: true }) : [])
  if (entry.isFile()) rmSync(join('dist', entry.name));
await build(CLI_BUILD);
