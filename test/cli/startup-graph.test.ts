import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { build, type Metafile } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { CLI_BUILD } from '../../scripts/cli-build.mjs';

/**
 * The inputs `responder run` reads, compiles and evaluates before it does anything: its action's
 * file and the chunks that file imports statically, followed transitively (the CLI built as
 * `npm run build` builds it, in memory).
 */
async function loadedByRun(): Promise<string[]> {
  const { metafile } = await build({ ...CLI_BUILD, write: false, metafile: true, logLevel: 'silent' });
  const outputs = (metafile as Metafile).outputs;
  const start = Object.keys(outputs).find((path) => outputs[path]?.entryPoint === 'cli/actions/run.ts');
  if (!start) throw new Error('no output for cli/actions/run.ts');
  const loaded = new Set([start]);
  for (const path of loaded)
    for (const imported of outputs[path]?.imports ?? [])
      if (imported.kind === 'import-statement' && outputs[imported.path]) loaded.add(imported.path);
  return [...loaded].flatMap((path) => Object.keys(outputs[path]?.inputs ?? {}));
}

describe("`responder run`'s start", () => {
  it('does not load the WebSocket client: the first exec does', async () => {
    const inputs = await loadedByRun();
    expect(inputs.filter((path) => path.includes('node_modules/ws/'))).toEqual([]);
    expect(inputs).toContain('src/cluster/exec.ts');
    // Nor openid-client, which only a kubeconfig's OIDC user needs.
    expect(inputs.filter((path) => /node_modules\/(openid-client|oauth4webapi)\//.test(path))).toEqual([]);
  }, 240_000);

  it("evaluates none of the proxy agents KubeConfig imports (socks and its DNS lookups): a proxied cluster's first request does", () => {
    // The build the CLI tests run (test/build-cli.ts), as a user's `responder run` loads it.
    const run = readdirSync('dist').find((file) => /^run-[A-Z0-9]+\.js$/.test(file));
    if (!run) throw new Error('no dist/run-*.js: the CLI is not built');
    const builtins = JSON.parse(
      execFileSync(
        process.execPath,
        [
          '--input-type=module',
          '-e',
          `await import(${JSON.stringify(join(process.cwd(), 'dist', run))});
           process.stdout.write(JSON.stringify(process.moduleLoadList));`,
        ],
        { encoding: 'utf8' },
      ),
    ) as string[];
    expect(builtins).toContain('NativeModule net');
    expect(builtins).not.toContain('NativeModule dns');
  });
});
