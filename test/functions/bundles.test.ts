import { build, type Metafile } from 'esbuild';
import { describe, expect, it } from 'vitest';

/**
 * The functions as the deploy bundles them (ESM for nodejs22.x, the AWS SDK left to the runtime):
 * the ones that only admit jobs carry no cluster client, so they start fast whatever the cluster does.
 */
async function bundle(entry: string): Promise<{ inputs: string[]; imports: string[] }> {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    minify: true,
    write: false,
    metafile: true,
    outfile: 'out.mjs',
    mainFields: ['module', 'main'],
    external: ['@aws-sdk/*'],
    logLevel: 'silent',
  });
  const metafile = result.metafile as Metafile;
  const output = Object.values(metafile.outputs)[0];
  return {
    inputs: Object.keys(metafile.inputs),
    imports: [...new Set((output?.imports ?? []).map((i) => i.path))],
  };
}

describe('the Lambda bundles', () => {
  it.each(['functions/http.ts', 'functions/alarm.ts', 'functions/sweep.ts'])(
    '%s has no Kubernetes client and no EC2 client',
    async (entry) => {
      const { inputs, imports } = await bundle(entry);
      expect(inputs.filter((path) => path.includes('@kubernetes/client-node'))).toEqual([]);
      expect(imports).not.toContain('@aws-sdk/client-ec2');
      expect(imports).not.toContain('@aws-sdk/client-eks');
      // Nor the runbooks' code: admitting a job needs their ids and params schemas only.
      const admissionOnly = /^runbooks\/(catalog\.ts|team-catalog\.ts|[^/]+\/params\.ts)$/;
      expect(inputs.filter((path) => path.startsWith('runbooks/') && !admissionOnly.test(path))).toEqual([]);
    },
    60_000,
  );

  it('the worker, which reaches clusters, does carry them', async () => {
    const { inputs, imports } = await bundle('functions/worker.ts');
    expect(inputs.some((path) => path.includes('@kubernetes/client-node'))).toBe(true);
    expect(imports).toContain('@aws-sdk/client-eks');
  }, 60_000);
});

/**
 * The inputs a function's cold start evaluates: those its entry reaches by static imports. Split
 * as esbuild splits (what a dynamic import reaches lands in a chunk of its own), then the chunks
 * the entry statically imports, followed transitively.
 */
async function loadedAtStart(entry: string): Promise<string[]> {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    splitting: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    write: false,
    metafile: true,
    outdir: 'out',
    mainFields: ['module', 'main'],
    logLevel: 'silent',
  });
  const outputs = (result.metafile as Metafile).outputs;
  const start = Object.keys(outputs).find((path) => outputs[path]?.entryPoint === entry) as string;
  const loaded = new Set([start]);
  for (const path of loaded)
    for (const imported of outputs[path]?.imports ?? [])
      if (imported.kind === 'import-statement' && outputs[imported.path]) loaded.add(imported.path);
  return [...loaded].flatMap((path) => Object.keys(outputs[path]?.inputs ?? {}));
}

describe("the http function's cold start", () => {
  it('loads neither the web console (its pages, jose, openid-client) nor Slack’s Web API client: the requests that need them load them', async () => {
    const inputs = await loadedAtStart('functions/http.ts');
    const heavy =
      /node_modules\/(jose|openid-client|oauth4webapi|@slack\/web-api|@aws-lambda-powertools\/metrics)\/|^functions\/console\/(?!aws-console|console-secret)/;
    expect(inputs.filter((path) => heavy.test(path))).toEqual([]);
    // What every request needs is there.
    expect(inputs).toContain('functions/http-app.ts');
    expect(inputs.some((path) => path.includes('node_modules/zod/'))).toBe(true);
  }, 60_000);

  it('reads the config the stack validated at synth as JSON: no YAML parser, no config schema built', async () => {
    const inputs = await loadedAtStart('functions/http.ts');
    expect(inputs).toContain('src/config/deployed.ts');
    expect(inputs.filter((path) => path.includes('node_modules/yaml/'))).toEqual([]);
    expect(inputs).not.toContain('src/config/schema.ts');
  }, 60_000);
});
