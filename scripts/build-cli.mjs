// Builds the `responder` command into dist/ (run by `npm ci` and `npm install` through `prepare`,
// and before the tests): one ESM bundle with its commands split out, so `responder --help` loads
// only commander, and each command loads its own code when it runs. Packages stay in node_modules.
import { build } from 'esbuild';

await build({
  entryPoints: { responder: 'cli/main.ts' },
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  sourcemap: 'linked',
  logLevel: 'warning',
});
