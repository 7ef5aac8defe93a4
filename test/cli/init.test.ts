import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import packageJson from '../../package.json' with { type: 'json' };
import { runCli } from './run-cli.ts';

/** What `npm init -y` writes with npm 11. */
const NPM_INIT = {
  name: 'team-responder',
  version: '1.0.0',
  main: 'index.js',
  scripts: { test: 'echo "Error: no test specified" && exit 1' },
  type: 'commonjs',
};

const read = (dir: string, file: string) => readFileSync(join(dir, file), 'utf8');

describe('responder init', () => {
  it("writes a team's project, merged into npm init's package.json, and never overwrites", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'team-init-'));
    writeFileSync(join(dir, 'package.json'), JSON.stringify(NPM_INIT));
    writeFileSync(join(dir, 'tsconfig.json'), '{ "mine": true }\n');
    const first = await runCli(['init', '--dir', dir]);
    expect(first.code).toBe(0);

    const pkg = JSON.parse(read(dir, 'package.json'));
    expect(pkg).toMatchObject({ name: 'team-responder', version: '1.0.0', type: 'module' });
    expect(pkg.scripts).toEqual({ test: 'tsc --noEmit && vitest run', synth: 'cdk synth --quiet' });
    expect(pkg.devDependencies).toEqual({
      'aws-cdk': packageJson.devDependencies['aws-cdk'],
      'aws-cdk-lib': packageJson.devDependencies['aws-cdk-lib'],
      constructs: packageJson.devDependencies.constructs,
      esbuild: packageJson.devDependencies.esbuild,
      typescript: packageJson.devDependencies.typescript,
      vitest: packageJson.devDependencies.vitest,
      tsx: packageJson.dependencies.tsx,
      '@types/node': packageJson.devDependencies['@types/node'],
    });
    expect(JSON.parse(read(dir, 'cdk.json')).app).toBe('npx tsx cdk/app.ts');
    expect(read(dir, 'tsconfig.json')).toBe('{ "mine": true }\n');
    expect(first.output).toContain('kept tsconfig.json (exists)');
    expect(read(dir, 'cdk/app.ts')).toContain("from 'cilium-responder'");
    const config = parse(read(dir, 'responder.config.yaml'));
    expect(config.runbooks).toEqual(['./runbooks/cilium-agents-ready/index.ts']);
    for (const file of ['index.ts', 'params.ts', 'steps/check.ts'])
      expect(existsSync(join(dir, 'runbooks/cilium-agents-ready', file))).toBe(true);
    expect(existsSync(join(dir, 'test/cilium-agents-ready.test.ts'))).toBe(true);

    writeFileSync(join(dir, 'cdk/app.ts'), '// edited\n');
    const again = await runCli(['init', '--dir', dir]);
    expect(again.code).toBe(0);
    expect(read(dir, 'cdk/app.ts')).toBe('// edited\n');
    expect(again.output).toContain('kept runbooks/cilium-agents-ready (exists)');
  }, 120_000);

  it('new runbook names itself in the config, keeping its comments, once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'team-init-'));
    await runCli(['init', '--dir', dir]);
    const added = await runCli(['new', 'runbook', 'agents-on-nodes', '--dir', dir]);
    expect(added.code).toBe(0);
    expect(parse(read(dir, 'responder.config.yaml')).runbooks).toEqual([
      './runbooks/cilium-agents-ready/index.ts',
      './runbooks/agents-on-nodes/index.ts',
    ]);
    expect(read(dir, 'responder.config.yaml')).toContain('# your own runbooks');
    expect(read(dir, 'runbooks/agents-on-nodes/params.ts')).toContain('maxNotReady: z.int()');
  }, 120_000);
});
