import { build } from 'esbuild';

/** An entry bundled as the deploy bundles functions (cdk/bundling.ts): ESM, node22, minified, the SDK inside. */
export async function bundleLikeTheDeploy(
  entry: string,
  outfile: string,
  options: { sourcemap?: boolean } = {},
): Promise<void> {
  await build({
    sourcemap: options.sourcemap ?? false,
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    minify: true,
    mainFields: ['module', 'main'],
    banner: { js: "import { createRequire } from 'module'; const require = createRequire(import.meta.url);" },
    logLevel: 'error',
  });
}
