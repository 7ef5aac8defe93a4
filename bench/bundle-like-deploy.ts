import { resolve } from 'node:path';
import { build, type Metafile } from 'esbuild';
import { FUNCTION_BUILD } from '../cdk/bundling.ts';

export interface Bundled {
  /** The entry, index.mjs: what Lambda imports. */
  entry: string;
  /** Bytes of the files a cold start reads: the entry and the chunks it imports statically. */
  startupBytes: number;
  /** Bytes of every code file shipped (the chunks dynamic imports load too). */
  shippedBytes: number;
}

/** The entry's file and those it imports statically, transitively: what its import loads. */
function startupFiles(outputs: Metafile['outputs'], entry: string): string[] {
  const start = Object.keys(outputs).find((path) => outputs[path]?.entryPoint === entry);
  if (!start) throw new Error(`esbuild made no file for ${entry}`);
  const loaded = new Set([start]);
  for (const path of loaded)
    for (const imported of outputs[path]?.imports ?? [])
      if (imported.kind === 'import-statement' && outputs[imported.path]) loaded.add(imported.path);
  return [...loaded];
}

/**
 * An entry bundled as the deploy bundles functions (cdk/bundling.ts, the same options): into
 * `outdir`, its entry index.mjs and the chunks its dynamic imports load.
 */
export async function bundleLikeTheDeploy(
  entry: string,
  outdir: string,
  options: { sourcemap?: boolean } = {},
): Promise<Bundled> {
  const { metafile } = await build({
    ...FUNCTION_BUILD,
    sourcemap: options.sourcemap ?? false,
    entryPoints: [entry],
    outdir,
    metafile: true,
  });
  const { outputs } = metafile;
  const bytes = (paths: string[]) => paths.reduce((sum, path) => sum + (outputs[path]?.bytes ?? 0), 0);
  return {
    entry: resolve(outdir, 'index.mjs'),
    startupBytes: bytes(startupFiles(outputs, entry)),
    shippedBytes: bytes(Object.keys(outputs).filter((path) => path.endsWith('.mjs'))),
  };
}
