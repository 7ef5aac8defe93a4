import { build, type Metafile } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { FUNCTION_BUILD } from '../../cdk/bundling.ts';

/** A function built as the deploy builds it (cdk/bundling.ts), in memory: what esbuild put where. */
async function built(entry: string): Promise<Metafile> {
  const result = await build({
    ...FUNCTION_BUILD,
    entryPoints: [entry],
    outdir: 'out',
    write: false,
    metafile: true,
  });
  return result.metafile as Metafile;
}

/**
 * Every input the function ships (in any of its files): the ones that only admit jobs carry no
 * cluster client, so they start fast whatever the cluster does.
 */
async function bundle(entry: string): Promise<{ inputs: string[] }> {
  return { inputs: Object.keys((await built(entry)).inputs) };
}

describe('the Lambda bundles', () => {
  it.each(['functions/http.ts', 'functions/alarm.ts', 'functions/sweep.ts'])(
    '%s has no Kubernetes client and no EC2 client',
    async (entry) => {
      const { inputs } = await bundle(entry);
      expect(inputs.filter((path) => path.includes('@kubernetes/client-node'))).toEqual([]);
      expect(inputs.filter((path) => /@aws-sdk\/client-(ec2|eks)\//.test(path))).toEqual([]);
      // Nor the runbooks' code: admitting a job needs their ids and params schemas only.
      const admissionOnly = /^runbooks\/(catalog\.ts|team-catalog\.ts|[^/]+\/params\.ts)$/;
      expect(inputs.filter((path) => path.startsWith('runbooks/') && !admissionOnly.test(path))).toEqual([]);
    },
    60_000,
  );

  it('the worker, which reaches clusters, does carry them', async () => {
    const { inputs } = await bundle('functions/worker.ts');
    expect(inputs.some((path) => path.includes('@kubernetes/client-node'))).toBe(true);
    expect(inputs.some((path) => path.includes('@aws-sdk/client-eks/'))).toBe(true);
  }, 60_000);
});

/**
 * The inputs a function's cold start reads, compiles and evaluates: those in its entry file and in
 * the chunks the entry statically imports, followed transitively. What a dynamic import reaches is
 * in a file of its own, loaded when a request needs it.
 */
async function loadedAtStart(entry: string): Promise<string[]> {
  const outputs = (await built(entry)).outputs;
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
  }, 60_000);

  it("loads no payload schema, no zod and not the core: the first request past the route's checks loads them", async () => {
    const inputs = await loadedAtStart('functions/http.ts');
    const core =
      /node_modules\/zod\/|^src\/(triggers|routing|params)\/|^src\/app\/app\.ts$|^runbooks\/|^src\/slack\/(command|interactions)\.ts$/;
    expect(inputs.filter((path) => core.test(path))).toEqual([]);
    // They are shipped, in files of their own.
    const all = (await bundle('functions/http.ts')).inputs;
    expect(all).toEqual(
      expect.arrayContaining(['functions/http-payloads.ts', 'src/app/app.ts', 'runbooks/catalog.ts']),
    );
    expect(all.some((path) => path.includes('node_modules/zod/'))).toBe(true);
  }, 60_000);

  it('loads no AWS SDK: it reads its secrets with one signed request each; the table and the queue load with the first request that uses them', async () => {
    const inputs = await loadedAtStart('functions/http.ts');
    const sdk = inputs.filter((path) =>
      /node_modules\/(@aws-sdk|@smithy|@aws-crypto|@aws-lambda-powertools\/parameters)\//.test(path),
    );
    expect(sdk).toEqual([]);
    expect(inputs).toContain('functions/sigv4.ts');
    // The clients are shipped, in a file of their own.
    const all = (await bundle('functions/http.ts')).inputs;
    expect(all.some((path) => path.includes('node_modules/@aws-sdk/client-dynamodb/'))).toBe(true);
    expect(all.some((path) => path.includes('node_modules/@aws-sdk/client-sqs/'))).toBe(true);
  }, 60_000);

  it('reads the config the stack validated at synth as JSON: no YAML parser, no config schema built', async () => {
    const inputs = await loadedAtStart('functions/http.ts');
    expect(inputs).toContain('src/config/deployed.ts');
    expect(inputs.filter((path) => path.includes('node_modules/yaml/'))).toEqual([]);
    expect(inputs).not.toContain('src/config/schema.ts');
  }, 60_000);
});
