import type { BundlingOptions } from 'aws-cdk-lib/aws-lambda-nodejs';
import { OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';

/**
 * How every function is bundled: locally by esbuild (no Docker), ESM for nodejs22.x, minified. The
 * AWS SDK is bundled too: one minified file loads faster at a cold start than the runtime's copy
 * spread over node_modules (measured: `npm run bench`). Source maps: see SOURCE_MAPPED.
 */
export const BUNDLING: BundlingOptions = {
  format: OutputFormat.ESM,
  target: 'node22',
  minify: true,
  mainFields: ['module', 'main'],
  externalModules: [],
  // ESM bundles of CommonJS packages need `require`.
  banner: "import { createRequire } from 'module'; const require = createRequire(import.meta.url);",
};

/**
 * Only the worker ships its source map and runs with NODE_OPTIONS=--enable-source-maps, so its
 * traces (runbook and cluster failures, the ones someone debugs) name the TypeScript. Node parses
 * the map at load: `npm run bench` ("Lambda bundles") measured the cold import of the worker 1.42 s
 * -> 1.90 s with it (a 10 MiB map), of the http function 0.65 s -> 0.89 s (4 MiB) on a full core;
 * at 256 MB Lambda gives a fraction of one, and the http function answers Slack within 3 s. The
 * http, alarm and sweep functions are thin edges whose errors name their field: no map for them.
 */
export const SOURCE_MAPPED = {
  bundling: { sourceMap: true },
  environment: { NODE_OPTIONS: '--enable-source-maps' },
};
