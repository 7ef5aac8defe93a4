import { describe, expect, it } from 'vitest';
import { createHttpApp } from '../../functions/http-app.ts';
import { parseConfig } from '../../src/config/load.ts';
import { memoryStore } from '../../src/store/index.ts';
import { appOf } from './harness.ts';

const CONFIG = parseConfig(`
clusters:
  - name: prod-eu
    sim: { scenarios: [healthy] }
`);
const TOKEN = 'operator-token';

function app() {
  const store = memoryStore();
  const queue = { send: async () => {} };
  const now = () => new Date('2026-11-21T10:00:00Z');
  const http = createHttpApp({
    app: appOf({ config: CONFIG, store, queue, runbooks: ['unmanaged-pods'], now, newId: () => 'job-1' }),
    secrets: { operatorToken: TOKEN },
  });
  return { http, store };
}

const auth = { authorization: `Bearer ${TOKEN}` };

describe('operator endpoints', () => {
  it('GET /runs lists the audit trail without the full reports, and needs the token', async () => {
    const { http, store } = app();
    await store.runs.put({
      runId: 'run-1',
      jobId: 'job-1',
      cluster: 'prod-eu',
      runbook: 'unmanaged-pods',
      mode: 'auto',
      source: 'alertmanager',
      actor: 'alertmanager',
      reason: 'CiliumUnmanagedPods',
      params: {},
      status: 'done',
      verdict: 'remediated',
      plan: [],
      actions: ['evict-pod shop/web-1: done'],
      queuedAt: '2026-11-21T09:59:00Z',
      report: {
        runId: 'run-1',
        runbook: 'unmanaged-pods',
        cluster: 'prod-eu',
        mode: 'auto',
        verdict: 'remediated',
        steps: [],
        timings: { startedAt: '', finishedAt: '', durationMs: 1 },
      },
    });
    expect((await http.request('/runs')).status).toBe(401);
    const response = await http.request('/runs?cluster=prod-eu', { headers: auth });
    const { runs } = (await response.json()) as { runs: Record<string, unknown>[] };
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({
      runId: 'run-1',
      verdict: 'remediated',
      actions: ['evict-pod shop/web-1: done'],
    });
    expect(runs[0]).not.toHaveProperty('report');
  });

  it('POST /brake/reset lets writes go again, and names a bad cluster', async () => {
    const { http, store } = app();
    const now = new Date('2026-11-21T10:00:00Z');
    expect(await store.brake.take('prod-eu', 1, 900, now)).toEqual(expect.any(String));
    expect(await store.brake.take('prod-eu', 1, 900, now)).toBeUndefined();
    const bad = await http.request('/brake/reset', {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: '{"cluster":"nope"}',
    });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ field: 'cluster' });
    const ok = await http.request('/brake/reset', {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: '{"cluster":"prod-eu"}',
    });
    expect(ok.status).toBe(200);
    expect(await store.brake.take('prod-eu', 1, 900, now)).toEqual(expect.any(String));
  });

  it.each([
    ['limit=0.5', 'limit'],
    ['limit=0', 'limit'],
    ['limit=501', 'limit'],
    ['limit=ten', 'limit'],
    ['cluster=', 'cluster'],
    ['cluster=nope', 'cluster'],
    ['runbook=Unmanaged_Pods', 'runbook'],
    ['runbook=no-such-runbook', 'runbook'],
    ['verdict=fine', 'verdict'],
    ['verdict=failed&verdict=healthy', 'verdict'],
    ['since=yesterday', 'since'],
    ['since=2026-13-01T00:00:00Z', 'since'],
    ['since=-1h', 'since'],
    ['next=not%20a%20cursor', 'next'],
    [`next=${Buffer.from('run-1').toString('base64url')}`, 'next'],
    ['verdicts=failed', 'verdicts'],
  ])('GET /runs?%s → 400 naming the field', async (query, field) => {
    const { http } = app();
    const response = await http.request(`/runs?${query}`, { headers: auth });
    expect(response.status).toBe(400);
    const answer = (await response.json()) as { field: string; error: string };
    expect(answer.field).toBe(field);
    expect(answer.error).toMatch(new RegExp(`^(${field}: |no ${field} ")`));
  });

  it('GET /runs answers a cursor with the page after it, and takes filters with it', async () => {
    const { http, store } = app();
    for (const [i, runbook] of ['unmanaged-pods', 'host-identity', 'unmanaged-pods'].entries())
      await store.runs.put({
        runId: `run-${i}`,
        jobId: `job-${i}`,
        cluster: 'prod-eu',
        runbook,
        mode: 'dry-run',
        source: 'cli',
        actor: 'me',
        reason: 'cli',
        params: {},
        status: 'done',
        verdict: 'healthy',
        plan: [],
        actions: [],
        queuedAt: `2026-11-21T09:5${i}:00.000Z`,
      });
    const get = async (query: string) =>
      (await (await http.request(`/runs?${query}`, { headers: auth })).json()) as {
        runs: { runId: string }[];
        next?: string;
      };
    const first = await get('runbook=unmanaged-pods&limit=1');
    expect(first.runs.map((r) => r.runId)).toEqual(['run-2']);
    const second = await get(`runbook=unmanaged-pods&limit=1&next=${first.next}`);
    expect(second).toEqual({ runs: [expect.objectContaining({ runId: 'run-0' })] });
    expect((await get(`limit=5&next=${first.next}`)).runs.map((r) => r.runId)).toEqual(['run-1', 'run-0']);
  });

  it('the webhook token does not open the operator endpoints', async () => {
    const store = memoryStore();
    const http = createHttpApp({
      app: appOf({
        config: CONFIG,
        store,
        queue: { send: async () => {} },
        runbooks: [],
        now: () => new Date(),
        newId: () => 'j',
      }),
      secrets: { alertmanagerToken: 'webhook-token', operatorToken: TOKEN },
    });
    const response = await http.request('/runs', { headers: { authorization: 'Bearer webhook-token' } });
    expect(response.status).toBe(401);
  });
});
