import { createServer } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { type Sim, startSim } from '../../../sim/index.ts';
import { type ClusterAccess, RESOURCES } from '../../../src/cluster/types.ts';
import { accessAt, accessTo, countRequests, failByPattern, kubeErrorOf, silentServer } from './fixtures.ts';

describe('KubeFacade retries and timeouts', () => {
  let sim: Sim;
  let access: ClusterAccess;
  const listNamespaces = (on: ClusterAccess) =>
    on.kube.list(RESOURCES.namespaces, { project: (ns) => ns.metadata.name });

  beforeAll(async () => {
    sim = await startSim({ scenarios: ['healthy'], controllers: false });
    access = accessTo(sim, { retries: 2 });
  });
  afterAll(() => sim.close());
  afterEach(() => {
    vi.restoreAllMocks();
    sim.faults.clear();
  });

  it('waits out Retry-After on a 429, then succeeds', async () => {
    sim.faults.set('list', { errorRate: 1, errorCode: 429, retryAfterSeconds: 1 });
    const attempts = failByPattern(sim, 'list', [true]);
    const started = performance.now();
    expect(await listNamespaces(access)).toContain('kube-system');
    expect(performance.now() - started).toBeGreaterThanOrEqual(1000);
    expect(attempts()).toBe(2);
  });

  it('surfaces throttling that outlasts the retries', async () => {
    sim.faults.set('list', { errorRate: 1, errorCode: 429, retryAfterSeconds: 0 });
    const attempts = failByPattern(sim, 'list', [true, true, true, true]);
    const error = await kubeErrorOf(listNamespaces(access));
    expect(error.kind).toBe('throttled');
    expect(error.status).toBe(429);
    expect(attempts()).toBe(3);
  });

  it('reads the Retry-After seconds into the error', async () => {
    sim.faults.set('get', { errorRate: 1, errorCode: 429, retryAfterSeconds: 1 });
    const once = accessTo(sim, { retries: 0 });
    const error = await kubeErrorOf(once.kube.get(RESOURCES.namespaces, undefined, 'default'));
    expect(error.kind).toBe('throttled');
    expect(error.retryAfterSeconds).toBe(1);
  });

  it('retries server errors a bounded number of times, then reports unavailable', async () => {
    sim.faults.set('list', { errorRate: 1, errorCode: 500 });
    const attempts = failByPattern(sim, 'list', [true, true, true, true, true]);
    const error = await kubeErrorOf(listNamespaces(access));
    expect(error.kind).toBe('unavailable');
    expect(error.status).toBe(500);
    expect(error.message).toBe('unavailable: list namespaces (Internal error occurred: injected fault)');
    expect(attempts()).toBe(3);
  });

  it('recovers when a server error clears within the retries', async () => {
    sim.faults.set('list', { errorRate: 1, errorCode: 500 });
    const attempts = failByPattern(sim, 'list', [true, true]);
    expect(await listNamespaces(access)).toContain('default');
    expect(attempts()).toBe(3);
  });

  it('does not retry a forbidden or missing answer', async () => {
    const requests = countRequests(sim);
    const reader = sim.issueToken('nobody', []);
    const forbidden = accessTo(sim, { kubeconfigToken: reader.token, retries: 2 });
    expect((await kubeErrorOf(listNamespaces(forbidden))).kind).toBe('forbidden');
    expect((await kubeErrorOf(access.kube.get(RESOURCES.pods, 'default', 'missing'))).kind).toBe('not-found');
    expect(requests()).toBe(2);
  });

  it('times out a slow request, and does not repeat it', async () => {
    sim.faults.set('get', { latencyMs: 1_500 });
    const requests = countRequests(sim);
    const impatient = accessTo(sim, { requestTimeoutMs: 200, retries: 2 });
    const started = performance.now();
    const error = await kubeErrorOf(impatient.kube.get(RESOURCES.namespaces, undefined, 'default'));
    expect(error.kind).toBe('timeout');
    expect(error.message).toBe('timeout: get namespaces (no answer within 200 ms)');
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(requests()).toBe(1);
  });

  describe('without a server', () => {
    let silent: { url: string; close(): Promise<void> };

    beforeAll(async () => {
      silent = await silentServer();
    });
    afterAll(() => silent.close());

    it('times out a server that never answers', async () => {
      const error = await kubeErrorOf(
        accessAt(sim, silent.url, { requestTimeoutMs: 200 }).kube.get(RESOURCES.nodes, undefined, 'x'),
      );
      expect(error.kind).toBe('timeout');
    });

    it('reports a refused connection as unavailable', async () => {
      const closed = createServer();
      await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
      const closedPort = (closed.address() as { port: number }).port;
      await new Promise<void>((resolve) => closed.close(() => resolve()));
      const error = await kubeErrorOf(
        accessAt(sim, `https://127.0.0.1:${closedPort}`, { retries: 1 }).kube.get(
          RESOURCES.nodes,
          undefined,
          'x',
        ),
      );
      expect(error.kind).toBe('unavailable');
      expect(error.detail).toContain('ECONNREFUSED');
      expect(error.status).toBeUndefined();
    });
  });
});
