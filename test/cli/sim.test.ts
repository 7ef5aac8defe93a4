import { mkdtemp, readFile, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { runCli, startCli } from './run-cli.ts';

describe('responder sim', () => {
  it('serves the scenario, writes a private kubeconfig with context "sim", and prints a ready line', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'responder-sim-'));
    const kubeconfig = join(dir, 'kubeconfig');
    const cli = startCli([
      'sim',
      '--scenario',
      'healthy,unmanaged-pods',
      '--kubeconfig',
      kubeconfig,
      '--port',
      '0',
    ]);
    try {
      const output = await cli.waitFor(/ready/);
      expect(output).toContain(kubeconfig);
      expect((await stat(kubeconfig)).mode & 0o777).toBe(0o600);
      const kc = new KubeConfig();
      kc.loadFromString(await readFile(kubeconfig, 'utf8'));
      expect(kc.getCurrentContext()).toBe('sim');
      const nodes = await kc.makeApiClient(CoreV1Api).listNode();
      expect(nodes.items.length).toBeGreaterThan(0);
    } finally {
      expect(await cli.stop()).toBe(0);
    }
  });

  it('names an unknown scenario and exits 2 without serving', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'responder-sim-'));
    const { code, output } = await runCli([
      'sim',
      '--scenario',
      'healthy,bogus',
      '--kubeconfig',
      join(dir, 'k'),
    ]);
    expect(code).toBe(2);
    expect(output).toMatch(/bogus/);
    expect(output).not.toMatch(/ready/);
  });

  it('rejects a bad port with a message naming it', async () => {
    const { code, output } = await runCli([
      'sim',
      '--scenario',
      'healthy',
      '--kubeconfig',
      '/tmp/x',
      '--port',
      'http',
    ]);
    expect(code).toBe(2);
    expect(output).toMatch(/--port/);
  });
});

describe('responder demo (npm start)', () => {
  it('shows every phase in 100 columns, reaches remediated through an approval, within 20 s', async () => {
    const started = performance.now();
    const demo = startCli(['demo']);
    // Its first line before the heavy setup: never a silent wait.
    await demo.waitFor(/^Cilium Responder demo: starting a simulated EKS cluster/, 20_000);
    expect(performance.now() - started).toBeLessThan(1000);
    const code = await new Promise<number | null>((resolve) => demo.child.once('exit', resolve));
    const output = demo.output();
    const wallSeconds = (performance.now() - started) / 1000;
    expect(code, output).toBe(0);
    const at = (heading: string) => output.indexOf(`=== ${heading}`);
    const dryRun = at('dry-run');
    const auto = at('auto');
    const alerts = at('alerts');
    const approval = at('approval');
    const summary = at('summary');
    expect(dryRun).toBeGreaterThanOrEqual(0);
    expect(auto).toBeGreaterThan(dryRun);
    expect(alerts).toBeGreaterThan(auto);
    expect(approval).toBeGreaterThan(alerts);
    expect(summary).toBeGreaterThan(approval);
    for (const runbook of ['unmanaged-pods', 'cgroup-root-hooks', 'host-identity', 'tunnel-datapath']) {
      expect(output.slice(dryRun, auto)).toContain(`${runbook} (dry-run): `);
      expect(output.slice(auto, alerts)).toContain(`${runbook} (auto): `);
    }
    // The alert path: four notifications queued through the local server, the retry deduplicated.
    const alertPhase = output.slice(alerts, approval);
    expect(alertPhase.match(/-> 202: queued \S+/g)).toHaveLength(4);
    expect(alertPhase).toMatch(/again \(an Alertmanager retry\) -> 202: 1 duplicate, nothing queued/);
    expect(alertPhase).toMatch(/sim\/host-identity · new\] host-identity on sim: needs approval/);
    // The approval: a signed Slack interaction, the run resumed, its new message in the thread.
    const approvalPhase = output.slice(approval, summary);
    expect(approvalPhase).toMatch(/POST \/slack\/interactions -> 200: Approved by <@U012AB3CD>/);
    expect(approvalPhase).toMatch(/sim\/host-identity · update\] host-identity on sim: remediated/);
    const table = output.slice(summary);
    expect(table).toMatch(/host-identity\s+approve\s+alertmanager\s+remediated/);
    expect(table).toMatch(/unmanaged-pods\s+auto\s+cli\s+degraded\s+evict-pod ×3 done/);
    expect(table).not.toMatch(/\bfailed\b/);
    // Every line fits the screen, progress lines included.
    const wide = output.split('\n').filter((line) => line.length > 100);
    expect(wide).toEqual([]);
    // Its own clock (the CLI's start-up under a loaded CI runner is not the demo's).
    const reported = Number(output.match(/Demo finished in ([\d.]+) s\./)?.[1]);
    expect(reported).toBeLessThanOrEqual(20);
    expect(wallSeconds).toBeLessThan(60);
  }, 120_000);
});
