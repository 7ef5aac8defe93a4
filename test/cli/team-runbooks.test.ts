import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCli } from './run-cli.ts';

const FIXTURES = fileURLToPath(new URL('../fixtures/', import.meta.url));
const CONFIG = join(FIXTURES, 'team.config.yaml');

describe("the CLI with a team's runbooks", () => {
  it('runs a runbook the config names, on a scenario from a file', async () => {
    const { code, output } = await runCli([
      'run',
      'csi-drivers',
      '--config',
      CONFIG,
      '--sim',
      join(FIXTURES, 'team-runbooks/kube-proxy-removed.ts'),
      '--no-state',
      '-o',
      'json',
    ]);
    expect(output).toContain('"runbook": "csi-drivers"');
    expect(output).toContain('namespaces');
    expect(code).toBe(0);
  }, 120_000);

  it("reads --set text as the team runbook's schema wants it: a number and a list", async () => {
    const run = (...set: string[]) =>
      runCli(['run', 'csi-drivers', '--config', CONFIG, '--sim', 'healthy', '--no-state', ...set]);
    const typed = await run('--set', 'minimum=3', '--set', 'only=default,kube-system');
    expect(typed.output).toContain('2 namespaces (default, kube-system), at least 3 wanted');
    expect(typed.code).toBe(1);
    const bad = await run('--set', 'minimum=many');
    expect(bad.output).toMatch(/minimum: .*number.*\(csi-drivers: valid keys: minimum, only\)/);
    expect(bad.code).toBe(2);
  }, 120_000);

  it('lists them after the built-in ones, and prints the RBAC with their reads', async () => {
    const list = await runCli(['list', '--config', CONFIG]);
    expect(list.output).toMatch(/tunnel-datapath[^\n]*\n[^\n]*csi-drivers/);
    const rbac = await runCli(['rbac', '--config', CONFIG]);
    expect(rbac.output).toContain('csidrivers');
  }, 120_000);

  it("lists a team runbook's params under run <runbook> --help, from the config", async () => {
    const { code, output } = await runCli(['run', 'csi-drivers', '--help', '--config', CONFIG]);
    expect(output).toMatch(/minimum\s+integer >= 0\s+fewest namespaces that still pass \(default: 0\)/);
    expect(output).toMatch(/only\s+list of strings, comma-separated\s+count only these namespaces/);
    expect(code).toBe(0);
    const unknown = await runCli(['run', 'nope', '--help', '--config', CONFIG]);
    expect(unknown.output).toContain('unknown runbook "nope"; known runbooks: ');
    expect(unknown.output).toContain('csi-drivers');
    expect(unknown.code).toBe(2);
  }, 120_000);

  it("names the file, line, column and esbuild's message of a runbook that does not parse", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'responder-broken-'));
    writeFileSync(join(dir, 'broken.ts'), "export default {\n  id: 'broken',\n  title: ,\n};\n");
    writeFileSync(
      join(dir, 'responder.config.yaml'),
      'runbooks:\n  - ./broken.ts\nclusters:\n  - name: lab\n    sim: { scenarios: [healthy] }\n',
    );
    const { code, output } = await runCli(['list', '--config', join(dir, 'responder.config.yaml')]);
    expect(output).toContain(
      `runbook module ./broken.ts: cannot load it: ${join(dir, 'broken.ts')}:3:9: Unexpected ","`,
    );
    expect(output).not.toContain('Transform failed');
    expect(code).toBe(2);
  }, 120_000);

  it('refuses an unknown runbook after loading the config, naming the known ones', async () => {
    const { code, output } = await runCli([
      'run',
      'nope',
      '--config',
      CONFIG,
      '--sim',
      'healthy',
      '--no-state',
    ]);
    expect(output).toContain('unknown runbook "nope"');
    expect(output).toContain('csi-drivers');
    expect(code).toBe(2);
  }, 120_000);
});

describe('responder new runbook', () => {
  it('scaffolds the runbook, its doc, a step and a simulator test; never overwrites', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'team-project-'));
    const first = await runCli(['new', 'runbook', 'kube-proxy-coexistence', '--dir', dir]);
    expect(first.code).toBe(0);
    for (const file of ['index.ts', 'README.md', 'steps/check.ts'])
      expect(existsSync(join(dir, 'runbooks/kube-proxy-coexistence', file))).toBe(true);
    const test = readFileSync(join(dir, 'test/kube-proxy-coexistence.test.ts'), 'utf8');
    expect(test).toContain("from 'cilium-responder/testing'");
    const index = readFileSync(join(dir, 'runbooks/kube-proxy-coexistence/index.ts'), 'utf8');
    expect(index).toContain("id: 'kube-proxy-coexistence'");
    // Params named as the built-in runbooks name theirs.
    expect(index).toContain('params: kubeProxyCoexistenceParams,');
    expect(readFileSync(join(dir, 'runbooks/kube-proxy-coexistence/params.ts'), 'utf8')).toContain(
      'export type KubeProxyCoexistenceParams = z.output<typeof kubeProxyCoexistenceParams>;',
    );
    const again = await runCli(['new', 'runbook', 'kube-proxy-coexistence', '--dir', dir]);
    expect(again.output).toMatch(/not overwriting .*runbooks\/kube-proxy-coexistence\/index\.ts/);
    expect(again.code).toBe(2);
  }, 120_000);

  it('refuses a built-in id and a badly formed one', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'team-project-'));
    expect((await runCli(['new', 'runbook', 'unmanaged-pods', '--dir', dir])).output).toContain(
      'taken by a built-in runbook',
    );
    expect((await runCli(['new', 'runbook', 'Bad_Id', '--dir', dir])).output).toContain(
      'must be lowercase letters, digits and dashes',
    );
  }, 120_000);
});
