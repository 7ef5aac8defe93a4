import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { alertmanagerNotification } from '../../cli/demo/alerts.ts';
import type { RunRecord } from '../../src/store/types.ts';
import { runCli, startCli } from './run-cli.ts';

/** Local runs that stop half-way: what the next command finds, and says. */

const CONFIG = 'responder.config.example.yaml';
const TOKEN = 'interrupt-test-token';
const OPERATOR = 'interrupt-test-operator';

async function freshState() {
  return { RESPONDER_STATE_DIR: join(await mkdtemp(join(tmpdir(), 'responder-interrupt-')), 'state') };
}

const historyOf = async (env: NodeJS.ProcessEnv) => {
  const history = await runCli(['history', '--json'], env);
  return { ...history, runs: JSON.parse(history.output.slice(history.output.indexOf('['))) as RunRecord[] };
};

const evictions = (record: RunRecord | undefined) =>
  (record?.actions ?? []).filter((action) => /^evict-pod \S+: done/.test(action));

describe('Ctrl-C during `responder run`', () => {
  it('ends the run interrupted with its writes listed, releases the lease, and the next run starts at once', async () => {
    const env = await freshState();
    const run = startCli(['run', 'unmanaged-pods', '--sim', 'unmanaged-pods', '--mode', 'auto'], env);
    // The verify step waits for the replacements: the evictions happened by then.
    await run.waitFor(/verify-replacements/, 60_000);
    const exited = new Promise((resolve) => run.child.once('exit', resolve));
    run.child.kill('SIGINT');
    expect(await exited).toBe(130);
    expect(run.output()).toMatch(
      /was interrupted: stopped by Ctrl-C \(pid \d+ on .+\).*its writes: evict-pod/,
    );

    const started = Date.now();
    const next = await runCli(['run', 'unmanaged-pods', '--sim', 'unmanaged-pods'], env);
    expect(next.output).not.toMatch(/in progress/);
    expect(next.code, next.output).toBe(1);
    expect(Date.now() - started).toBeLessThan(30_000);

    const { runs } = await historyOf(env);
    const stopped = runs.find((r) => r.status === 'interrupted');
    expect(evictions(stopped).length).toBeGreaterThan(0);
    expect(runs.filter((r) => r.status === 'running')).toEqual([]);
  }, 120_000);
});

describe('Ctrl-C during a long monitor (host-identity, monitorSeconds=60)', () => {
  it('stops the monitor: the process ends within 2 s, interrupted, and the next run is not refused', async () => {
    const env = await freshState();
    const args = ['run', 'host-identity', '--sim', 'host-identity-world'];
    const run = startCli([...args, '--set', 'monitorSeconds=60'], env);
    await run.waitFor(/watched for drops \(waiting up to 60 s\)/, 60_000);
    const exited = new Promise((resolve) => run.child.once('exit', resolve));
    const sent = Date.now();
    run.child.kill('SIGINT');
    expect(await exited).toBe(130);
    expect(Date.now() - sent).toBeLessThan(2_000);
    expect(run.output()).toMatch(
      /host-identity on sim: run \S+ was interrupted: stopped by Ctrl-C \(pid \d+ on .+\).*it journaled no writes/,
    );
    // Stopped by the step's own end, not by the fallback that closes a run which did not stop.
    expect(run.output()).not.toMatch(/did not stop/);

    // The lease was given back and stays free: no heartbeat took it again after the release.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const next = await runCli([...args, '--set', 'monitorSeconds=1'], env);
    expect(next.output).not.toMatch(/in progress|duplicate/);
    expect(next.output).toMatch(/Verdict: degraded/);
    const { runs } = await historyOf(env);
    expect(runs.map((r) => r.status).sort()).toEqual(['done', 'interrupted']);
  }, 120_000);
});

describe('`responder serve --state` killed (kill -9) mid-run', () => {
  it('is found at the next start: the run is interrupted, with the eviction it made listed', async () => {
    const env = { ...(await freshState()), ALERTMANAGER_TOKEN: TOKEN, RESPONDER_OPERATOR_TOKEN: OPERATOR };
    const serve = startCli(['serve', '--state', '--config', CONFIG, '--port', '0'], env);
    const ready = await serve.waitFor(/responder ready at (http:\/\/[\d.:]+)/);
    const url = /responder ready at (http:\/\/[\d.:]+)/.exec(ready)?.[1] as string;

    // While it holds the state, another local command is told so, and exits 2.
    const second = await runCli(['history'], env);
    expect(second.code).toBe(2);
    expect(second.output).toMatch(
      /the local state in .+ is in use by `responder serve --state .*` \(pid \d+ on /,
    );
    expect(second.output).not.toMatch(/Database is closed/);

    const alert = alertmanagerNotification(
      'CiliumUnmanagedPods',
      'pods without endpoints',
      'sim',
      new Date(),
    );
    const posted = await fetch(`${url}/alerts/alertmanager`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify(alert),
    });
    expect(posted.status).toBe(202);
    // Mid-run: the record is running and has journaled an eviction.
    let running: RunRecord | undefined;
    for (let attempt = 0; attempt < 200 && evictions(running).length === 0; attempt++) {
      const response = await fetch(`${url}/runs`, { headers: { authorization: `Bearer ${OPERATOR}` } });
      const { runs } = (await response.json()) as { runs: RunRecord[] };
      running = runs.find((r) => r.status === 'running');
      if (evictions(running).length === 0) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(evictions(running).length).toBeGreaterThan(0);
    serve.child.kill('SIGKILL');
    await serve.stop();

    const restarted = startCli(['serve', '--state', '--config', CONFIG, '--port', '0'], env);
    const said = await restarted.waitFor(/responder ready at/);
    await restarted.stop();
    expect(said).toMatch(
      new RegExp(
        `run ${running?.runId} \\(unmanaged-pods on sim\\) was interrupted: the worker \\(pid \\d+ on .+\\) stopped during this run .*its writes: evict-pod`,
      ),
    );
    const { runs } = await historyOf(env);
    const after = runs.find((r) => r.runId === running?.runId);
    expect(after?.status).toBe('interrupted');
    // Every eviction seen before the kill is listed; more may have landed between that look and the kill.
    expect(evictions(after)).toEqual(expect.arrayContaining(evictions(running)));
  }, 120_000);
});
