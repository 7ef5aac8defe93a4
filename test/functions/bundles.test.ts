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
