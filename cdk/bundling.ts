import { copyFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { AssetHashType, DockerImage } from 'aws-cdk-lib';
import { Code } from 'aws-cdk-lib/aws-lambda';
import type { BuildOptions } from 'esbuild';

/**
 * How every function is bundled: locally by esbuild (no Docker), ESM for nodejs22.x, minified, the
 * AWS SDK inside (one minified bundle loads faster at a cold start than the runtime's copy spread
 * over node_modules), and split: what a function loads with a dynamic import (the web console,
 * Slack's Web API client, the SDK's DynamoDB and SQS clients in the http function) is a file of its
 * own, read and compiled only when a request needs it, so a cold start compiles only what it runs.
 * NodejsFunction cannot split (it gives esbuild one --outfile); the bench bundles with these same
 * options (bench/bundle-like-deploy.ts).
 */
export const FUNCTION_BUILD = {
  bundle: true,
  splitting: true,
  platform: 'node',
  format: 'esm',
  target: 'node22',
  minify: true,
  mainFields: ['module', 'main'],
  outExtension: { '.js': '.mjs' },
  entryNames: 'index',
  chunkNames: '[name]-[hash]',
  // ESM bundles of CommonJS packages need `require`.
  banner: { js: "import { createRequire } from 'module'; const require = createRequire(import.meta.url);" },
  logLevel: 'error',
} as const satisfies BuildOptions;

/**
 * Only the worker ships its source maps and runs with NODE_OPTIONS=--enable-source-maps, so its
 * traces (runbook and cluster failures, the ones someone debugs) name the TypeScript. Node parses
 * the maps at load: `npm run bench` ("Lambda bundles") measures the cold start with and without;
 * at 256 MB Lambda gives a fraction of a vCPU, and the http function answers Slack within 3 s. The
 * http, alarm and sweep functions are thin edges whose errors name their field: no map for them.
 */
export const SOURCE_MAPPED = {
  environment: { NODE_OPTIONS: '--enable-source-maps' },
};

export interface FunctionCode {
  /** The TypeScript entry; its `handler` export is the Lambda handler (index.handler). */
  entry: string;
  /** Shipped beside the code (the deployed config, read at each cold start). */
  besides: { file: string; as: string }[];
  sourcemap: boolean;
  /** Where esbuild resolves packages from: the project that synthesizes. */
  projectDir: string;
}

/** esbuild, as the project that synthesizes installed it (a team's `npm install` does). */
function esbuildOf(projectDir: string): typeof import('esbuild') {
  try {
    return createRequire(join(projectDir, 'package.json'))('esbuild');
  } catch {
    throw new Error(
      `esbuild is needed to bundle the functions and was not found from ${projectDir}: npm install --save-dev esbuild`,
    );
  }
}

/** A function's code, bundled at synth as FUNCTION_BUILD says, with its files beside it. */
export function functionCode(code: FunctionCode): Code {
  return Code.fromAsset(code.projectDir, {
    // The bundle's own hash: the project folder is not read.
    assetHashType: AssetHashType.OUTPUT,
    bundling: {
      // Never pulled: the bundling is local.
      image: DockerImage.fromRegistry('public.ecr.aws/sam/build-nodejs22.x'),
      // What the local bundling does; CDK also keys its asset cache on it, so each function and
      // each stack's config gets its own asset.
      command: ['esbuild', code.entry, ...code.besides.map((b) => b.file), code.sourcemap ? 'sourcemap' : ''],
      local: {
        tryBundle(outputDir) {
          esbuildOf(code.projectDir).buildSync({
            ...FUNCTION_BUILD,
            entryPoints: [code.entry],
            outdir: outputDir,
            sourcemap: code.sourcemap,
            absWorkingDir: code.projectDir,
          });
          for (const beside of code.besides) copyFileSync(beside.file, join(outputDir, beside.as));
          return true;
        },
      },
    },
  });
}
