import type { BundlingOptions } from 'aws-cdk-lib/aws-lambda-nodejs';
import { OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';

/**
 * How every function is bundled: locally by esbuild (no Docker), ESM for nodejs22.x, minified with
 * source maps. The AWS SDK is bundled too: one minified file loads faster at a cold start than the
 * runtime's copy spread over node_modules (measured: `npm run bench`).
 */
export const BUNDLING: BundlingOptions = {
  format: OutputFormat.ESM,
  target: 'node22',
  minify: true,
  sourceMap: true,
  mainFields: ['module', 'main'],
  externalModules: [],
  // ESM bundles of CommonJS packages need `require`.
  banner: "import { createRequire } from 'module'; const require = createRequire(import.meta.url);",
};
