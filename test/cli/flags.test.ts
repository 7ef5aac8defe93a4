import { spawnSync } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { Report } from '../../src/engine/types.ts';
import { type RunningCli, runCli, startCli } from './run-cli.ts';

describe('the responder command, as a platform engineer types it', () => {
  it('--version prints the package version', async () => {
    const { code, output } = await runCli(['--version']);
    expect(code).toBe(0);
    expect(output.trim()).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it('--help shows examples and exit codes', async () => {
    const { code, output } = await runCli(['run', '--help']);
    expect(code).toBe(0);
    expect(output).toContain('Examples:');
    expect(output).toContain('Exit codes: 0 healthy or remediated, 1 problems remain, 2');
  });

  it('a busy port is said plainly, not as a stack trace', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const { port } = blocker.address() as { port: number };
    try {
      const { code, output } = await runCli([
        'serve',
        '--config',
        'responder.config.example.yaml',
        '--port',
        String(port),
      ]);
      expect(code).toBe(2);
      expect(output).toContain(`port ${port} on 127.0.0.1 is already in use`);
      expect(output).not.toMatch(/\n\s+at /);
    } finally {
      blocker.close();
    }
  });

  it('a config with a bad cron expression names the file, line and field', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'responder-cron-'));
    const config = join(dir, 'bad.yaml');
    const { writeFile } = await import('node:fs/promises');
    await writeFile(
      config,
      'clusters:\n  - name: a\n    sim: { scenarios: [healthy] }\nschedules:\n  - name: n\n    expression: cron(0 3 * * *)\n',
    );
    const { code, output } = await runCli(['sweep', 'n', '--config', config]);
    expect(code).toBe(2);
    expect(output).toContain(`${config}:6: schedules.0.expression: cron(...) takes 6 fields`);
  });

  it('a missing config file points at the example', async () => {
    const { code, output } = await runCli([
      'run',
      'all',
      '--cluster',
      'prod',
      '--config',
      '/nonexistent/r.yaml',
    ]);
    expect(code).toBe(2);
    expect(output).toContain('copy responder.config.example.yaml');
  });
});

describe('responder run against a kubeconfig, as kubectl finds it', () => {
  let sim: RunningCli;
  let kubeconfig: string;
  beforeAll(async () => {
    kubeconfig = join(await mkdtemp(join(tmpdir(), 'responder-flags-')), 'kubeconfig');
    sim = startCli(['sim', '--scenario', 'vxlan-blocked', '--kubeconfig', kubeconfig]);
    await sim.waitFor(/ready/);
  });
  afterAll(() => sim.stop());

  it('honours $KUBECONFIG with a bare --context, and prints YAML with -o yaml', async () => {
    const { code, output } = await runCli(
      ['run', 'tunnel-datapath', '--context', 'sim', '-o', 'yaml', '--no-state'],
      {
        KUBECONFIG: kubeconfig,
      },
    );
    expect(code, output).toBe(1);
    const [report] = (parse(output.slice(output.indexOf('reports:'))) as { reports: Report[] }).reports;
    expect(report).toMatchObject({ runbook: 'tunnel-datapath', cluster: 'sim', verdict: 'degraded' });
  }, 60_000);

  it('passes --set params to the runbook, which checks them before anything runs', async () => {
    const run = (value: string) =>
      runCli([
        'run',
        'unmanaged-pods',
        '--kubeconfig',
        kubeconfig,
        '--set',
        `gracePeriodSeconds=${value}`,
        '--no-state',
      ]);
    const good = await run('120');
    expect(good.code, good.output).toBe(0);
    const bad = await run('soon');
    expect(bad.code).toBe(2);
    expect(bad.output).toContain('gracePeriodSeconds: must be a whole number of seconds');
  }, 60_000);

  it('names a context the kubeconfig does not have', async () => {
    const { code, output } = await runCli(['run', 'tunnel-datapath', '--context', 'prod', '--no-state'], {
      KUBECONFIG: kubeconfig,
    });
    expect(code).toBe(2);
    expect(output).toMatch(/context "prod" not found in kubeconfig .*\(available: "sim"\)/);
  }, 60_000);
});

describe('responder piped into a reader that stops early', () => {
  it('ends quietly when `head` closes the pipe', () => {
    const bin = join(import.meta.dirname, '../../bin/responder.js');
    // The help is many lines; head takes one and closes the pipe.
    const result = spawnSync('sh', ['-c', `node '${bin}' run unmanaged-pods --help | head -1`], {
      encoding: 'utf8',
    });
    expect(result.stdout).toBe('Usage: responder run [options] [runbook]\n');
    expect(result.stderr).not.toContain('EPIPE');
  });
});
