import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build, type Metafile } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { CLI_BUILD } from '../../scripts/cli-build.mjs';
import { runCli } from './run-cli.ts';

/**
 * The inputs `responder run` reads, compiles and evaluates before it does anything: its action's
 * file and the chunks that file imports statically, followed transitively (the CLI built as
 * `npm run build` builds it, in memory), built once for the tests here.
 */
const loadedByRun = async () => (await runStart()).inputs;
let built: Promise<{ inputs: string[]; code: string[] }> | undefined;
/** The inputs, and the code of the chunks they are in. */
const runStart = () => {
  built ??= startOfRun();
  return built;
};

async function startOfRun(): Promise<{ inputs: string[]; code: string[] }> {
  const { metafile, outputFiles } = await build({
    ...CLI_BUILD,
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  const outputs = (metafile as Metafile).outputs;
  const start = Object.keys(outputs).find((path) => outputs[path]?.entryPoint === 'cli/actions/run.ts');
  if (!start) throw new Error('no output for cli/actions/run.ts');
  const loaded = new Set([start]);
  const external: string[] = [];
  for (const path of loaded)
    for (const imported of outputs[path]?.imports ?? []) {
      if (imported.kind !== 'import-statement') continue;
      if (outputs[imported.path]) loaded.add(imported.path);
      // Packages left in node_modules (dynalite, tsx), by name.
      else if (imported.external) external.push(`node_modules/${imported.path}/`);
    }
  return {
    inputs: [...[...loaded].flatMap((path) => Object.keys(outputs[path]?.inputs ?? {})), ...external],
    code: outputFiles
      .filter((file) => [...loaded].some((path) => file.path.endsWith(`/${path}`)))
      .map((file) => file.text),
  };
}

describe("`responder run`'s start", () => {
  it('does not load the WebSocket client: the first exec does', async () => {
    const inputs = await loadedByRun();
    expect(inputs.filter((path) => path.includes('node_modules/ws/'))).toEqual([]);
    expect(inputs).toContain('src/cluster/exec.ts');
    // Nor openid-client, which only a kubeconfig's OIDC user needs.
    expect(inputs.filter((path) => /node_modules\/(openid-client|oauth4webapi)\//.test(path))).toEqual([]);
  }, 240_000);

  it('keeps its local state without dynalite or the DynamoDB client (a tenth of a second before the first request), and loads no AWS SDK code for a kubeconfig', async () => {
    const inputs = await loadedByRun();
    expect(inputs).toContain('cli/state-file.ts');
    expect(inputs.filter((path) => /node_modules\/(dynalite|@aws-sdk|@smithy)\//.test(path))).toEqual([]);
  }, 240_000);

  it('compiles no YAML parser: only a config file or -o yaml loads it', async () => {
    const inputs = await loadedByRun();
    expect(inputs).toContain('runbooks/team.ts');
    expect(inputs.filter((path) => path.includes('node_modules/yaml/'))).toEqual([]);
  }, 240_000);

  it("scans tr46's 260 KB mapping table (under node-fetch) as one string, not as code", async () => {
    const { code } = await runStart();
    const table = code.find((text) => text.includes('disallowed_STD3_valid'));
    expect(table).toBeDefined();
    expect(table).toMatch(/JSON\.parse\('\[\[\[0,44\],"disallowed_STD3_valid"\]/);
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

/** A kubeconfig whose cluster is reached through `proxyUrl`. */
function proxiedKubeconfig(proxyUrl: string): string {
  const file = join(mkdtempSync(join(tmpdir(), 'responder-proxy-')), 'kubeconfig');
  writeFileSync(
    file,
    `apiVersion: v1
kind: Config
clusters:
  - name: c
    cluster: { server: 'https://cluster.invalid:6443', insecure-skip-tls-verify: true, proxy-url: '${proxyUrl}' }
users:
  - name: u
    user: { token: t }
contexts:
  - name: proxied
    context: { cluster: c, user: u }
current-context: proxied
`,
  );
  return file;
}

/** A local socket that records the first bytes each connection sends, and answers nothing. */
async function listener(): Promise<{ port: number; first: Promise<Buffer>; server: Server }> {
  let seen: (bytes: Buffer) => void = () => {};
  const first = new Promise<Buffer>((resolve) => {
    seen = resolve;
  });
  const server = createServer((socket) =>
    socket.once('data', (bytes) => {
      seen(bytes);
      socket.destroy();
    }),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as { port: number }).port, first, server };
}

describe("a kubeconfig's proxy, its agent loaded at first use", () => {
  it('carries the first request', async () => {
    const proxy = await listener();
    try {
      const run = runCli([
        'run',
        'unmanaged-pods',
        '--kubeconfig',
        proxiedKubeconfig(`http://127.0.0.1:${proxy.port}`),
        '--no-state',
        '--request-timeout',
        '2',
      ]);
      const ended = run.then(({ output }) => {
        throw new Error(`the run ended without reaching the proxy:\n${output}`);
      });
      expect((await Promise.race([proxy.first, ended])).toString('latin1')).toMatch(
        /^CONNECT cluster\.invalid:6443 /,
      );
      await run;
    } finally {
      proxy.server.close();
    }
  }, 60_000);
});
