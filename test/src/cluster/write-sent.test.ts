import { createServer } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { type Sim, startSim } from '../../../sim/index.ts';
import { planOf } from '../../../sim/scenarios/index.ts';
import type { PodRef, UnmanagedPodsPlan } from '../../../sim/scenarios/plan.ts';
import { provenNotApplied } from '../../../src/cluster/retry.ts';
import { type ClusterAccess, KubeError, RESOURCES } from '../../../src/cluster/types.ts';
import { accessAt, accessTo, countRequests, kubeErrorOf, silentServer } from './fixtures.ts';

/** A loopback port nothing listens on. */
async function closedPortUrl(): Promise<string> {
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  const port = (closed.address() as { port: number }).port;
  await new Promise<void>((resolve) => closed.close(() => resolve()));
  return `https://127.0.0.1:${port}`;
}

describe('a failed write says whether it could have reached the server', () => {
  let sim: Sim;
  let other: Sim;
  let access: ClusterAccess;
  let plan: UnmanagedPodsPlan;
  beforeAll(async () => {
    [sim, other] = await Promise.all([
      startSim({ scenarios: ['unmanaged-pods'], controllers: false }),
      startSim({ controllers: false }),
    ]);
    access = accessTo(sim, { retries: 0 });
    plan = planOf(sim.cluster)?.unmanagedPods as UnmanagedPodsPlan;
  });
  afterAll(() => Promise.all([sim.close(), other.close()]));
  afterEach(() => {
    vi.restoreAllMocks();
    sim.faults.clear();
  });
  const gone = async (pod: PodRef) =>
    (await kubeErrorOf(access.kube.get(RESOURCES.pods, pod.namespace, pod.name))).kind === 'not-found';

  it('a refused connection was never sent: proof the write did not happen', async () => {
    const pod = plan.evictable[0] as PodRef;
    const error = await kubeErrorOf(
      accessAt(sim, await closedPortUrl(), { retries: 0 }).kube.evict(pod.namespace, pod.name, {
        uid: pod.uid,
      }),
    );
    expect(error.detail).toContain('ECONNREFUSED');
    expect(error.unsent).toBe(true);
    expect(provenNotApplied(error)).toBe(true);
  });

  it('a TLS handshake that fails (a server the CA did not sign) was never sent', async () => {
    const error = await kubeErrorOf(
      accessAt(sim, other.url, { retries: 0 }).kube.deletePod('shop', 'x', 'u'),
    );
    expect(error.detail).toContain('did not sign');
    expect(error.unsent).toBe(true);
    expect(provenNotApplied(error)).toBe(true);
  });

  it('a TLS handshake that never finishes (a connect timeout) was never sent', async () => {
    const silent = await silentServer();
    try {
      const error = await kubeErrorOf(
        accessAt(sim, silent.url, { retries: 0, requestTimeoutMs: 200 }).kube.deletePod('shop', 'x', 'u'),
      );
      expect(error.kind).toBe('timeout');
      expect(error.unsent).toBe(true);
    } finally {
      await silent.close();
    }
  });

  it('a connection dropped during the TLS handshake was never sent, so the write is tried again', async () => {
    let connections = 0;
    const dropping = createServer((socket) => {
      connections++;
      socket.destroy();
    });
    await new Promise<void>((resolve) => dropping.listen(0, '127.0.0.1', resolve));
    try {
      const url = `https://127.0.0.1:${(dropping.address() as { port: number }).port}`;
      const once = await kubeErrorOf(accessAt(sim, url, { retries: 0 }).kube.deletePod('shop', 'x', 'u'));
      expect(once.unsent).toBe(true);
      expect(connections).toBe(1);
      // A second attempt (the agent may open spare connections beside it, as in any burst).
      await kubeErrorOf(accessAt(sim, url, { retries: 1 }).kube.deletePod('shop', 'x', 'u'));
      expect(connections).toBeGreaterThanOrEqual(3);
    } finally {
      await new Promise<void>((resolve) => dropping.close(() => resolve()));
    }
  });

  it('a 500 is not tried again: the write may have happened', async () => {
    const pod = plan.evictable[2] as PodRef;
    sim.faults.set('eviction', { errorRate: 1, errorCode: 500 });
    const requests = countRequests(sim);
    await kubeErrorOf(accessTo(sim, { retries: 1 }).kube.evict(pod.namespace, pod.name, { uid: pod.uid }));
    expect(requests()).toBe(1);
  });

  it('an eviction applied then answered 504 may have happened (and did)', async () => {
    const pod = plan.evictable[0] as PodRef;
    sim.faults.set('eviction', { errorRate: 1, errorCode: 504, afterApply: true });
    const error = await kubeErrorOf(access.kube.evict(pod.namespace, pod.name, { uid: pod.uid }));
    expect(error).toMatchObject({ kind: 'unavailable', status: 504, unsent: false });
    expect(error.detail).toMatch(/^Timeout: request did not complete within requested timeout/);
    expect(provenNotApplied(error)).toBe(false);
    expect(await gone(pod)).toBe(true);
  });

  it('a pod delete applied then reset (on a kept-alive connection) may have happened (and did)', async () => {
    const pod = plan.evictable[1] as PodRef;
    await access.kube.get(RESOURCES.pods, pod.namespace, pod.name);
    sim.faults.set('delete', { errorRate: 1, errorCode: 'reset', afterApply: true });
    const error = await kubeErrorOf(access.kube.deletePod(pod.namespace, pod.name, pod.uid));
    expect(error).toMatchObject({ kind: 'unavailable', unsent: false });
    expect(provenNotApplied(error)).toBe(false);
    expect(await gone(pod)).toBe(true);
  });

  it('a write that outlives the deadline once sent may have happened', async () => {
    const pod = plan.evictable[2] as PodRef;
    sim.faults.set('delete', { latencyMs: 500 });
    const slow = accessTo(sim, { retries: 0, requestTimeoutMs: 250 });
    const error = await kubeErrorOf(slow.kube.deletePod(pod.namespace, pod.name, pod.uid));
    expect(error).toMatchObject({ kind: 'timeout', unsent: false });
    expect(provenNotApplied(error)).toBe(false);
  });
});

describe('provenNotApplied', () => {
  const error = (status: number | undefined, unsent = false) =>
    new KubeError('unavailable', 'create', 'pods/eviction', '', status, undefined, unsent);

  it.each([400, 401, 403, 404, 409, 422, 429, 499])('a %i refused the write before acting', (status) => {
    expect(provenNotApplied(error(status))).toBe(true);
  });

  it.each([408, 500, 502, 503, 504, 399, undefined])('a %s may come after the write', (status) => {
    expect(provenNotApplied(error(status))).toBe(false);
  });

  it('an error the request never left with proves it; one that is not the API’s proves nothing', () => {
    expect(provenNotApplied(error(undefined, true))).toBe(true);
    expect(provenNotApplied(new Error('socket hang up'))).toBe(false);
    expect(provenNotApplied('504')).toBe(false);
  });
});
