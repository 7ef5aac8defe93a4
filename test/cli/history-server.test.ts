import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LocalServer, startLocalServer } from '../../cli/serve/local-server.ts';
import { consoleSink } from '../../src/chat/console.ts';
import type { Verdict } from '../../src/engine/types.ts';
import { memoryStore, type RunRecord } from '../../src/store/index.ts';
import { collector, testConfig } from '../functions/harness.ts';
import { expectedIds, putAll } from '../src/store/run-trail.ts';
import { run } from '../src/store/state-store-suite.ts';
import { runCli } from './run-cli.ts';

const OPERATOR = 'history-server-operator';
const RUNS = 1_150;
const VERDICTS: Verdict[] = ['healthy', 'failed', 'remediated'];
const T0 = Date.parse('2026-11-20T00:00:00.000Z');

/** Runs a minute apart on two clusters and two runbooks, the newest last. */
function trail(): RunRecord[] {
  return Array.from({ length: RUNS }, (_, i) =>
    run(
      `run-${String(i).padStart(4, '0')}`,
      i % 2 ? 'prod-eu' : 'prod-us',
      new Date(T0 + i * 60_000).toISOString(),
      {
        runbook: i % 5 ? 'unmanaged-pods' : 'host-identity',
        status: 'done',
        verdict: VERDICTS[i % 3] as Verdict,
      },
    ),
  );
}

/** `responder history --server` pages through a server's audit trail with its filters. */
describe('responder history --server', () => {
  const runs = trail();
  let server: LocalServer;
  beforeAll(async () => {
    const store = memoryStore();
    await putAll(store, runs);
    server = await startLocalServer({
      config: testConfig(),
      chat: consoleSink(collector().stream),
      secrets: { operatorToken: OPERATOR },
      store,
    });
  });
  afterAll(async () => {
    await server.close();
  });

  const history = async (...args: string[]) => {
    const { code, output, stdout } = await runCli([
      'history',
      '--server',
      server.url,
      '--token',
      OPERATOR,
      ...args,
    ]);
    expect(code, output).toBe(0);
    return (JSON.parse(stdout) as RunRecord[]).map((r) => r.runId);
  };

  it('reads past the 500 a page holds: --limit 1200 gives every run once, newest first', async () => {
    expect(await history('--limit', '1200', '--json')).toEqual(expectedIds(runs));
  });

  it('stops at --limit in the middle of a page', async () => {
    expect(await history('--limit', '777', '--json')).toEqual(expectedIds(runs).slice(0, 777));
  });

  it('passes --cluster, --runbook, --verdict and --since to the server', async () => {
    const filter = {
      cluster: 'prod-eu',
      runbook: 'unmanaged-pods',
      verdict: 'failed',
      since: new Date(T0 + 300 * 60_000).toISOString(),
    } as const;
    const args = Object.entries(filter).flatMap(([key, value]) => [`--${key}`, value]);
    expect(await history(...args, '--limit', '1000', '--json')).toEqual(expectedIds(runs, filter));
  });

  it('names a bad filter as the server does, exit 2', async () => {
    const bad = await runCli(['history', '--server', server.url, '--token', OPERATOR, '--verdict', 'fine']);
    expect(bad.code).toBe(2);
    expect(bad.output).toMatch(
      /400 verdict: expected one of healthy, remediated, needs-approval, degraded, failed/,
    );
  });
});
