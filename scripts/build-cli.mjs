// Builds the `responder` command into dist/ (run by `npm ci` and `npm install` through `prepare`,
// and before the tests) as the functions are bundled (cdk/bundling.ts): the packages inlined and
// minified, so a command reads a few files instead of resolving hundreds across node_modules.
// The commands stay split out, so `responder --help` loads only commander, and each command loads
// its own code when it runs.
import { rmSync } from 'node:fs';
import { build } from 'esbuild';

rmSync('dist', { recursive: true, force: true });
await build({
  entryPoints: { responder: 'cli/main.ts' },
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  minify: true,
  mainFields: ['module', 'main'],
  // dynalite finds its LevelDB binding and its files next to itself; it stays in node_modules.
  external: ['dynalite'],
  // ESM bundles of CommonJS packages need `require`.
  banner: {
    js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);",
  },
  sourcemap: 'linked',
  logLevel: 'warning',
});
