import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alertmanagerNotification } from '../../cli/demo/alerts.ts';
import type { RunRecord } from '../../src/store/types.ts';
import { type RunningCli, runCli, startCli } from './run-cli.ts';

const TOKEN = 'serve-test-token';
const OPERATOR = 'serve-test-operator';

/** `responder serve` with the shipped example config, driven over HTTP, read back with `history`. */
describe('responder serve + history + brake reset', () => {
  let serve: RunningCli;
  let url: string;

  beforeAll(async () => {
    serve = startCli(['serve', '--config', 'responder.config.example.yaml', '--port', '0'], {
      ALERTMANAGER_TOKEN: TOKEN,
      RESPONDER_OPERATOR_TOKEN: OPERATOR,
    });
    const output = await serve.waitFor(/responder ready at (http:\/\/[\d.:]+)/);
    url = /responder ready at (http:\/\/[\d.:]+)/.exec(output)?.[1] as string;
  });
  afterAll(async () => {
    await serve.stop();
  });

  it('runs an alert through the queue and lists the run in history', async () => {
    const response = await fetch(`${url}/alerts/alertmanager`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify(
        alertmanagerNotification('CiliumClusterIPUnreachable', 'ClusterIP down', 'sim', new Date()),
      ),
    });
    expect(response.status).toBe(202);
    let runs: RunRecord[] = [];
    for (let attempt = 0; attempt < 120 && runs[0]?.status !== 'done'; attempt++) {
      const history = await runCli(['history', '--server', url, '--token', OPERATOR, '--json']);
      expect(history.code, history.output).toBe(0);
      runs = JSON.parse(history.output.slice(history.output.indexOf('['))) as RunRecord[];
      if (runs[0]?.status !== 'done') await new Promise((resolve) => setTimeout(resolve, 500));
    }
    expect(runs[0]).toMatchObject({
      cluster: 'sim',
      runbook: 'cgroup-root-hooks',
      source: 'alertmanager',
      status: 'done',
      verdict: 'degraded',
    });
    const table = await runCli(['history', '--server', url, '--token', OPERATOR, '--cluster', 'sim']);
    expect(table.output).toMatch(/cgroup-root-hooks\s+dry-run\s+alertmanager:alertmanager\s+degraded/);
    expect(serve.output()).toMatch(/cgroup-root-hooks on sim: degraded/);
  }, 90_000);

  it('resets the brake from the CLI, and names an unknown cluster', async () => {
    const ok = await runCli(['brake', 'reset', 'sim', '--server', url, '--token', OPERATOR]);
    expect(ok.code, ok.output).toBe(0);
    expect(ok.output).toContain('brake on sim reset');
    const bad = await runCli(['brake', 'reset', 'nope', '--server', url, '--token', OPERATOR]);
    expect(bad.code).toBe(2);
    expect(bad.output).toMatch(/400 no cluster "nope" in the config or the run history; known: sim/);
  });

  it('refuses history without the operator token; the webhook token is not one', async () => {
    for (const token of ['wrong', TOKEN]) {
      const { code, output } = await runCli(['history', '--server', url, '--token', token]);
      expect(code).toBe(2);
      expect(output).toMatch(/401/);
    }
  });
});
