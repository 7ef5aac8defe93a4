import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunOutput } from '../../cli/format/output.ts';
import { type Sim, startSim } from '../../sim/index.ts';
import type { RunRecord } from '../../src/store/types.ts';
import { runCli } from './run-cli.ts';

/** The JSON object on stdout (progress and errors go to stderr). */
const jsonOf = (stdout: string) => JSON.parse(stdout) as RunOutput;

/** A fresh state directory and its environment, so each case sees only its own runs. */
async function freshState() {
  const dir = await mkdtemp(join(tmpdir(), 'responder-output-'));
  return { dir, env: { RESPONDER_STATE_DIR: join(dir, 'state') } };
}

describe('responder run <runbook> --help', () => {
  it("lists that runbook's params with their types, defaults and meaning", async () => {
    const { code, output } = await runCli(['run', 'unmanaged-pods', '--help']);
    expect(code).toBe(0);
    expect(output).toMatch(
      /Params of unmanaged-pods \(--set key=value; the text after = is read as the type shown\):/,
    );
    expect(output).toMatch(/^ {2}namespaces +list of strings, comma-separated +only these namespaces/m);
    expect(output).toMatch(/^ {2}gracePeriodSeconds +integer 0-86400 +how long a pod must have run/m);
    const host = await runCli(['run', 'host-identity', '--help']);
    expect(host.output).toMatch(
      /^ {2}monitorSeconds +integer 1-120 +how long to watch .*\n.*\(default: 15\)/m,
    );
    expect(host.output).not.toMatch(/^ {2}namespaces +/m);
    expect((await runCli(['run', 'tunnel-datapath', '-h'])).output).toContain(
      'tunnel-datapath takes no params.',
    );
  });

  it('without a runbook, says one is missing and exits 2', async () => {
    const { code, output } = await runCli(['run']);
    expect(code).toBe(2);
    expect(output).toContain("missing required argument 'runbook'");
  });
});

describe('responder run against the simulator, as a person and a script read it', () => {
  let sim: Sim;
  let kubeconfig: string;
  beforeAll(async () => {
    sim = await startSim({ scenarios: ['unmanaged-pods'] });
    kubeconfig = join(await mkdtemp(join(tmpdir(), 'responder-output-kc-')), 'kubeconfig');
    await writeFile(kubeconfig, sim.kubeconfig());
  });
  afterAll(() => sim.close());

  it('-o json has one top-level shape for one runbook, for all, and when the run cannot start', async () => {
    const one = await runCli([
      'run',
      'cgroup-root-hooks',
      '--kubeconfig',
      kubeconfig,
      '--no-state',
      '-o',
      'json',
    ]);
    const all = await runCli(['run', 'all', '--kubeconfig', kubeconfig, '--no-state', '-o', 'json']);
    const none = await runCli([
      'run',
      'all',
      '--cluster',
      'prod',
      '--config',
      '/nonexistent.yaml',
      '-o',
      'json',
    ]);
    expect(none.code).toBe(2);
    for (const { stdout } of [one, all, none])
      expect(Object.keys(jsonOf(stdout))).toEqual(['reports', 'errors']);
    expect(jsonOf(one.stdout).reports.map((r) => r.runbook)).toEqual(['cgroup-root-hooks']);
    expect(jsonOf(all.stdout).reports).toHaveLength(4);
    expect(jsonOf(none.stdout)).toEqual({
      reports: [],
      errors: [{ runbook: 'all', message: expect.stringContaining('no config file /nonexistent.yaml') }],
    });
  }, 90_000);

  it('$KUBECONFIG alone runs on its current context, as kubectl does', async () => {
    const { code, output, stdout } = await runCli(['run', 'cgroup-root-hooks', '--no-state', '-o', 'json'], {
      KUBECONFIG: kubeconfig,
    });
    expect(code, output).toBe(0);
    expect(jsonOf(stdout).reports[0]).toMatchObject({ cluster: 'sim', verdict: 'healthy' });
  }, 60_000);

  it("speaks the CLI's words; the one line and the table count alike, and nothing is cut mid-word", async () => {
    const { output } = await runCli(['run', 'unmanaged-pods', '--kubeconfig', kubeconfig, '--no-state']);
    expect(output).not.toContain('--apply');
    const headline = output.slice(0, output.indexOf('\n  ')).replace(/\n/g, ' ');
    expect(headline).toMatch(/3 would be fixed with --mode auto/);
    expect(output).toMatch(/Run with --mode auto to let the responder do it, or by hand: kubectl/);
    const open = /, (\d+) open:/.exec(headline)?.[1];
    expect(output).toContain(`Found (8 found, 0 fixed, ${open} open)`);
    expect(headline).not.toMatch(/pod-restart-sel…/);
    // Whatever is left out ends at a whole word of the full text.
    for (const cut of headline.matchAll(/(\S+)…/g)) expect(output).toMatch(new RegExp(`${cut[1]}[ ,;:)]`));
  }, 60_000);

  it('a fixed problem says what was done, not what was planned', async () => {
    const { output } = await runCli([
      'run',
      'unmanaged-pods',
      '--kubeconfig',
      kubeconfig,
      '--no-state',
      '--mode',
      'auto',
    ]);
    // Each problem: its head row, then its message indented below it.
    const fixed = [...output.matchAll(/^ {4}fixed .*\n((?: {6}.*\n)+)/gm)].map((m) => m[1] ?? '');
    expect(fixed.length, output).toBe(3);
    for (const message of fixed) {
      expect(message.replace(/\s+/g, ' ')).toMatch(/evicted; its (DaemonSet|ReplicaSet) recreates it/);
      expect(message).not.toMatch(/planned|would/);
    }
  }, 90_000);
});

describe('a fan-out whose execs fail', () => {
  let sim: Sim;
  let kubeconfig: string;
  beforeAll(async () => {
    sim = await startSim({ scenarios: ['healthy'] });
    sim.faults.set('exec', { errorRate: 1 });
    kubeconfig = join(await mkdtemp(join(tmpdir(), 'responder-output-kc-')), 'kubeconfig');
    await writeFile(kubeconfig, sim.kubeconfig());
  });
  afterAll(() => sim.close());

  it('counts the failures as failures, never as agents checked', async () => {
    const { output } = await runCli(['run', 'cgroup-root-hooks', '--kubeconfig', kubeconfig, '--no-state']);
    const line = /agent-cgroup-root: (\d+)\/(\d+) (agents.*)/.exec(output);
    expect(line, output).not.toBeNull();
    const [, done, total, label] = line as unknown as [string, string, string, string];
    expect(done).toBe(total);
    expect(label).toBe(`agents: 0 checked, ${total} failed`);
  }, 90_000);
});

describe('history and the brake, over the local state', () => {
  let sim: Sim;
  let kubeconfig: string;
  let config: string;
  let env: Record<string, string>;
  beforeAll(async () => {
    sim = await startSim({ scenarios: ['unmanaged-pods'] });
    const state = await freshState();
    env = state.env;
    kubeconfig = join(state.dir, 'kubeconfig');
    await writeFile(kubeconfig, sim.kubeconfig());
    config = join(state.dir, 'responder.config.yaml');
    await writeFile(
      config,
      'clusters:\n  - name: other\n    sim:\n      scenarios: [healthy]\nlimits:\n  brake:\n    maxWrites: 2\n    windowMinutes: 15\n',
    );
  });
  afterAll(() => sim.close());

  it('history: -o json|yaml --limit, the error of a failed run as its WHY, the known clusters from the history', async () => {
    await runCli(['run', 'cgroup-root-hooks', '--kubeconfig', kubeconfig, '--config', config], env);
    const dead = join(await mkdtemp(join(tmpdir(), 'responder-dead-')), 'kubeconfig');
    await writeFile(dead, sim.kubeconfig().replace(/server: .*/, 'server: https://127.0.0.1:9'));
    const failed = await runCli(['run', 'cgroup-root-hooks', '--kubeconfig', dead, '--config', config], env);
    expect(failed.code).toBe(2);

    const json = await runCli(['history', '-o', 'json', '--limit', '1', '--config', config], env);
    const runs = JSON.parse(json.stdout) as RunRecord[];
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ runbook: 'cgroup-root-hooks', verdict: 'failed' });
    const yaml = await runCli(['history', '-o', 'yaml', '--limit', '2', '--config', config], env);
    expect(yaml.output.match(/^- runId: /gm)).toHaveLength(2);

    const table = await runCli(['history', '--config', config], env);
    // The failed run's row, its last column wrapped onto the next line.
    const rows = table.output.replace(/\s+/g, ' ');
    expect(rows).toMatch(
      / failed 0\/0\/0 0 The run failed at socket-lb: unavailable: get configmaps \(connect ECONNREFUSED/,
    );
    expect(rows).not.toMatch(/ cli:\S+ failed .* cli /);

    const unknown = await runCli(['history', '--cluster', 'nosuch', '--config', config], env);
    expect(unknown.code).toBe(2);
    expect(unknown.output).toContain(
      'no cluster "nosuch" in the config or the run history; known: other, sim',
    );
  }, 120_000);

  it('brake status: writes in the window against the limit, tripped, and when it frees', async () => {
    const free = await runCli(['brake', 'status', '--config', config], env);
    // Every cluster of the config and of the history.
    expect(free.output).toMatch(/^other +0\/2 +off +-$/m);
    expect(free.output).toMatch(/^sim +0\/2 +off +-$/m);
    await runCli(
      ['run', 'unmanaged-pods', '--kubeconfig', kubeconfig, '--mode', 'auto', '--config', config],
      env,
    );
    const tripped = await runCli(['brake', 'status', 'sim', '--config', config], env);
    expect(tripped.code, tripped.output).toBe(0);
    expect(tripped.output).toMatch(/^CLUSTER +WRITES \(last 15 min\) +BRAKE +FREES$/m);
    expect(tripped.output).toMatch(/^sim +2\/2 +tripped +\d{4}-\d\d-\d\dT\S+ \(in 1[45] min\)$/m);
    const json = await runCli(['brake', 'status', 'sim', '-o', 'json', '--config', config], env);
    expect(JSON.parse(json.stdout)).toMatchObject([{ cluster: 'sim', used: 2, limit: 2, engaged: true }]);
  }, 120_000);
});
