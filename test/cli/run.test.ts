import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import type { Report } from '../../src/engine/types.ts';
import { type RunningCli, runCli, startCli } from './run-cli.ts';

/** The one report of `run <runbook> -o json`: stdout is `{ reports, errors }` whatever ran. */
function parseReport(output: string): Report {
  return (JSON.parse(output.slice(output.indexOf('{'))) as { reports: Report[] }).reports[0] as Report;
}

const stillOpen = (report: Report) => report.steps[report.steps.length - 1]?.findings ?? [];

describe('responder run against a running `responder sim`', () => {
  let sim: RunningCli;
  let kubeconfig: string;

  beforeAll(async () => {
    kubeconfig = join(await mkdtemp(join(tmpdir(), 'responder-run-')), 'kubeconfig');
    sim = startCli(['sim', '--scenario', 'unmanaged-pods', '--kubeconfig', kubeconfig]);
    await sim.waitFor(/ready/);
  });
  afterAll(() => sim.stop());

  it('acts in auto, then a second run finds only what it could not or would not touch, each with its reason', async () => {
    const autoRun = () =>
      runCli(['run', 'unmanaged-pods', '--kubeconfig', kubeconfig, '--mode', 'auto', '--json']);
    const first = await autoRun();
    expect(first.code, first.output).toBe(1);
    const firstReport = parseReport(first.output);
    expect(firstReport).toMatchObject({
      runbook: 'unmanaged-pods',
      cluster: 'sim',
      mode: 'auto',
      verdict: 'degraded',
    });
    const done = firstReport.steps.flatMap((s) => s.done);
    expect(done.filter((d) => d.outcome === 'done').length).toBeGreaterThan(0);
    expect(done.some((d) => d.outcome === 'blocked' && /disruption budget/.test(d.detail ?? ''))).toBe(true);
    expect(done.some((d) => d.target.includes('aws-node'))).toBe(false);

    const second = await autoRun();
    expect(second.code, second.output).toBe(1);
    const left = stillOpen(parseReport(second.output));
    const evicted = new Set(done.filter((d) => d.outcome === 'done').map((d) => d.target));
    expect(left.length).toBeGreaterThan(0);
    for (const finding of left) {
      expect(evicted.has(finding.target)).toBe(false);
      expect(finding.message).toMatch(
        /disruption budget|not ready|agent-not-ready|kubelet|static|excluded|cap/i,
      );
    }
    expect(
      parseReport(second.output)
        .steps.flatMap((s) => s.done)
        .filter((d) => d.outcome === 'done'),
    ).toHaveLength(0);
  }, 120_000);

  it('prints one line per step, a findings table and the verdict for people', async () => {
    const { code, output } = await runCli(['run', 'cgroup-root-hooks', '--kubeconfig', kubeconfig]);
    expect(code).toBe(0);
    expect(output).toContain('cgroup-root-hooks on sim (dry-run)');
    expect(output).toMatch(/^ {2}ok +socket-lb +socket LB is on/m);
    expect(output).toMatch(/Verdict: healthy/);
  }, 60_000);

  it('names the namespace it looked in when Cilium is not there', async () => {
    const { code, output } = await runCli([
      'run',
      'unmanaged-pods',
      '--kubeconfig',
      kubeconfig,
      '--cilium-namespace',
      'cilium-elsewhere',
      '--no-state',
    ]);
    expect(output.replace(/\s+/g, ' ')).toContain(
      'configmaps "cilium-config" not found in namespace "cilium-elsewhere", and no Cilium agent pods (k8s-app=cilium) were found there',
    );
    expect(code).toBe(2);
  });

  it("says a kubeconfig user's missing credential plugin as kubectl does, with its install hint", async () => {
    const text = await readFile(kubeconfig, 'utf8');
    const withPlugin = join(await mkdtemp(join(tmpdir(), 'responder-exec-')), 'kubeconfig');
    const config = parse(text) as { users: { user: unknown }[] };
    for (const entry of config.users)
      entry.user = {
        exec: {
          apiVersion: 'client.authentication.k8s.io/v1beta1',
          command: 'aws-iam-authenticator-not-installed',
          args: ['token', '-i', 'lab'],
          installHint: 'Install it from https://github.com/kubernetes-sigs/aws-iam-authenticator',
        },
      };
    await writeFile(withPlugin, stringify(config));
    const { code, output } = await runCli([
      'run',
      'unmanaged-pods',
      '--kubeconfig',
      withPlugin,
      '--no-state',
    ]);
    expect(output.replace(/\s+/g, ' ')).toContain(
      'exec: executable aws-iam-authenticator-not-installed not found; Install it from https://github.com/kubernetes-sigs/aws-iam-authenticator',
    );
    expect(output).not.toContain('ENOENT');
    expect(code).toBe(2);
  });
});

describe('responder run, errors', () => {
  it('names an unknown runbook and exits 2', async () => {
    const { code, output } = await runCli(['run', 'nope', '--sim', 'healthy']);
    expect(code).toBe(2);
    expect(output).toMatch(/unknown runbook "nope"; known runbooks: unmanaged-pods/);
  });

  it.each([
    ['gracePeriodSeconds=-1', 'gracePeriodSeconds: must be 0 or more seconds'],
    ['namespaces=', 'namespaces: must name at least one namespace'],
    ['gracePeriod=30', 'gracePeriod: unknown key'],
  ])(
    'a --set %s its runbook refuses: names the key and the valid ones, exits 2, runs nothing',
    async (pair, said) => {
      const { code, output } = await runCli([
        'run',
        'unmanaged-pods',
        '--sim',
        'unmanaged-pods',
        '--set',
        pair,
      ]);
      expect(code).toBe(2);
      expect(output).toContain(`error: ${said}`);
      expect(output).toContain('valid keys: gracePeriodSeconds, namespaces');
      expect(output).not.toContain('evict');
      const history = await runCli(['history', '--json']);
      expect(history.output).not.toContain(pair.split('=')[0]);
    },
  );

  it('says an empty kubeconfig provides no configuration, naming the file', async () => {
    const empty = join(await mkdtemp(join(tmpdir(), 'responder-empty-')), 'kubeconfig');
    await writeFile(empty, '');
    const { code, output } = await runCli(['run', 'unmanaged-pods', '--kubeconfig', empty, '--no-state']);
    expect(output).toContain(
      `invalid configuration: no configuration has been provided: kubeconfig ${empty} has no clusters or contexts`,
    );
    expect(code).not.toBe(0);
  });

  it('asks for exactly one cluster when there is no kubeconfig to default to', async () => {
    const home = await mkdtemp(join(tmpdir(), 'responder-home-'));
    const { code, output } = await runCli(['run', 'all'], { KUBECONFIG: '', HOME: home });
    expect(code).toBe(2);
    expect(output).toMatch(
      /choose one cluster: --sim <scenario>, --kubeconfig <path> \[--context <name>\], --context <name> or --cluster <name>/,
    );
  });

  it('lists the runbooks', async () => {
    const { code, output } = await runCli(['list']);
    expect(code).toBe(0);
    for (const id of ['unmanaged-pods', 'cgroup-root-hooks', 'host-identity', 'tunnel-datapath'])
      expect(output).toContain(id);
  });
});

describe('responder sweep', () => {
  it("runs a schedule's runbooks on its clusters now, with a summary", async () => {
    const { code, output } = await runCli(['sweep', 'nightly', '--config', 'responder.config.example.yaml']);
    expect(code, output).toBe(1);
    for (const id of ['unmanaged-pods', 'cgroup-root-hooks', 'host-identity', 'tunnel-datapath']) {
      expect(output).toMatch(new RegExp(`^${id}\\s+dry-run\\s+degraded`, 'm'));
    }
  }, 120_000);

  it('names a schedule the config does not have', async () => {
    const { code, output } = await runCli(['sweep', 'weekly', '--config', 'responder.config.example.yaml']);
    expect(code).toBe(2);
    expect(output).toContain('no schedule named "weekly" in the config');
  });
});

describe('responder run goes through admission, like every other source', () => {
  /** A config with one simulated cluster and the given limits, in its own state directory. */
  async function setup(limits: string) {
    const dir = await mkdtemp(join(tmpdir(), 'responder-admission-'));
    const config = join(dir, 'responder.config.yaml');
    await writeFile(
      config,
      `clusters:\n  - name: sim\n    sim:\n      scenarios: [unmanaged-pods]\nlimits:\n${limits}`,
    );
    const env = { RESPONDER_STATE_DIR: join(dir, 'state') };
    const run = () =>
      runCli(
        ['run', 'unmanaged-pods', '--cluster', 'sim', '--mode', 'auto', '--config', config, '--json'],
        env,
      );
    return { config, env, run };
  }
  const evicted = (report: Report) =>
    report.steps.flatMap((s) => s.done).filter((d) => d.action === 'evict-pod' && d.outcome === 'done');

  it('with maxEvictionsPerRun: 0 it evicts nothing and says why', async () => {
    const { run } = await setup('  maxEvictionsPerRun: 0\n');
    const { code, output } = await run();
    expect(code, output).toBe(1);
    const report = parseReport(output);
    expect(evicted(report)).toEqual([]);
    const skipped = report.steps.flatMap((s) => s.done).filter((d) => d.action === 'evict-pod');
    expect(skipped.length).toBeGreaterThan(0);
    for (const action of skipped) expect(action.detail).toBe('over the per-run cap of 0');
  }, 60_000);

  it('never evicts a pod the config excludes by label', async () => {
    const { run } = await setup("  excludeSelectors: ['app.kubernetes.io/name=otel-agent']\n");
    const report = parseReport((await run()).output);
    const targets = report.steps.flatMap((s) => s.done).map((d) => `${d.target} ${d.outcome}`);
    expect(targets.filter((t) => t.startsWith('observability/otel-agent'))).toEqual([]);
    expect(evicted(report).length).toBeGreaterThan(0);
    expect(JSON.stringify(report)).toMatch(/observability\/otel-agent-[a-z0-9]+.*excluded/);
  }, 60_000);

  it('two runs in a row share one brake window, and history lists both without a server', async () => {
    const { config, env, run } = await setup('  brake:\n    maxWrites: 4\n    windowMinutes: 15\n');
    const first = evicted(parseReport((await run()).output));
    const second = parseReport((await run()).output);
    expect(first.length + evicted(second).length).toBe(4);
    expect(second.steps.flatMap((s) => s.done).some((d) => /brake engaged/.test(d.detail ?? ''))).toBe(true);
    const history = await runCli(['history', '--config', config, '--json'], env);
    expect(history.code, history.output).toBe(0);
    const runs = JSON.parse(history.output.slice(history.output.indexOf('['))) as { source: string }[];
    expect(runs).toHaveLength(2);
    expect(runs.map((r) => r.source)).toEqual(['cli', 'cli']);
  }, 90_000);
});
