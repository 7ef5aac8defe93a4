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
  it('runs every runbook on the all-incidents simulator in dry-run then auto, and ends with a summary', async () => {
    const { code, output } = await runCli(['demo']);
    expect(code, output).toBe(0);
    const dryRun = output.indexOf('=== dry-run');
    const auto = output.indexOf('=== auto');
    const summary = output.indexOf('=== summary ===');
    expect(dryRun).toBeGreaterThanOrEqual(0);
    expect(auto).toBeGreaterThan(dryRun);
    expect(summary).toBeGreaterThan(auto);
    for (const runbook of ['unmanaged-pods', 'cgroup-root-hooks', 'host-identity', 'tunnel-datapath']) {
      expect(output.slice(dryRun, auto)).toContain(`${runbook} on sim (dry-run)`);
      expect(output.slice(auto, summary)).toContain(`${runbook} on sim (auto)`);
      expect(output.slice(summary)).toMatch(
        new RegExp(`${runbook}\\s+auto\\s+(remediated|degraded|needs-approval)`),
      );
    }
    expect(output.slice(summary)).not.toMatch(/failed/);
    // The alert path: four notifications queued through the local server, the retry deduplicated.
    const alerts = output.slice(output.indexOf('=== alerts'), summary);
    expect(alerts.match(/-> 202: queued \S+/g)).toHaveLength(4);
    expect(alerts).toMatch(/again \(an Alertmanager retry\) -> 202: 1 duplicate, nothing queued/);
    expect(output.slice(summary)).toMatch(/unmanaged-pods\s+auto\s+alertmanager:alertmanager/);
  }, 120_000);
});
