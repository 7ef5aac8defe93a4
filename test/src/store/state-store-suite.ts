import { beforeEach, describe, expect, it } from 'vitest';
import type { RunRecord, StateStore } from '../../../src/store/index.ts';

/** The behaviour every StateStore adapter must have; each adapter's test file runs it once. */

const T0 = new Date('2026-03-02T10:00:00.000Z'); // on a minute boundary: brake windows of 60 s start here
const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000);

export function run(
  runId: string,
  cluster: string,
  queuedAt: string,
  extra: Partial<RunRecord> = {},
): RunRecord {
  return {
    runId,
    jobId: `job-${runId}`,
    cluster,
    runbook: 'unmanaged-pods',
    mode: 'auto',
    source: 'alertmanager',
    actor: 'alertmanager',
    reason: 'CiliumUnmanagedPods',
    params: {},
    status: 'queued',
    plan: [],
    actions: [],
    queuedAt,
    ...extra,
  };
}

export function describeStateStore(adapter: string, makeStore: () => Promise<StateStore>): void {
  describe(`${adapter} (StateStore behaviour)`, () => {
    let store: StateStore;
    beforeEach(async () => {
      store = await makeStore();
    });

    describe('dedupe', () => {
      it('claims a key once while the claim lives', async () => {
        expect(await store.dedupe.claim('alert-1', 600, T0)).toBe(true);
        expect(await store.dedupe.claim('alert-1', 600, at(1))).toBe(false);
        expect(await store.dedupe.claim('alert-1', 600, at(599))).toBe(false);
      });

      it('claims a key again once the TTL has passed', async () => {
        expect(await store.dedupe.claim('alert-1', 600, T0)).toBe(true);
        expect(await store.dedupe.claim('alert-1', 600, at(600))).toBe(true);
        expect(await store.dedupe.claim('alert-1', 600, at(601))).toBe(false);
      });

      it('lets a released claim be made again at once', async () => {
        expect(await store.dedupe.claim('alert-1', 600, T0)).toBe(true);
        await store.dedupe.release('alert-1');
        expect(await store.dedupe.claim('alert-1', 600, T0)).toBe(true);
        expect(await store.dedupe.claim('alert-1', 600, T0)).toBe(false);
      });

      it('keeps keys apart', async () => {
        expect(await store.dedupe.claim('alert-1', 600, T0)).toBe(true);
        expect(await store.dedupe.claim('alert-2', 600, T0)).toBe(true);
      });

      it('gives exactly one of 100 concurrent claims', async () => {
        const claims = await Promise.all(
          Array.from({ length: 100 }, () => store.dedupe.claim('burst', 600, T0)),
        );
        expect(claims.filter(Boolean)).toHaveLength(1);
      });
    });

    describe('threads', () => {
      it('remembers a thread root per key, and replaces it', async () => {
        expect(await store.threads.get('prod-eu/unmanaged-pods')).toBeUndefined();
        await store.threads.set('prod-eu/unmanaged-pods', { channel: 'C0CILIUM01', ts: '1714564800.000100' });
        await store.threads.set('prod-eu/host-identity', { channel: 'C0CILIUM01', ts: '1714564800.000200' });
        await store.threads.set('prod-eu/unmanaged-pods', { channel: 'C0CILIUM02', ts: '1714564800.000300' });
        expect(await store.threads.get('prod-eu/unmanaged-pods')).toEqual({
          channel: 'C0CILIUM02',
          ts: '1714564800.000300',
        });
        expect(await store.threads.get('prod-eu/host-identity')).toEqual({
          channel: 'C0CILIUM01',
          ts: '1714564800.000200',
        });
      });
    });

    describe('leases', () => {
      it('excludes other owners while held, and lets the holder renew', async () => {
        expect(await store.leases.acquire('prod/unmanaged-pods', 'run-a', 300, T0)).toBe(true);
        expect(await store.leases.acquire('prod/unmanaged-pods', 'run-b', 300, at(10))).toBe(false);
        expect(await store.leases.acquire('prod/unmanaged-pods', 'run-a', 300, at(200))).toBe(true);
        expect(await store.leases.acquire('prod/unmanaged-pods', 'run-b', 300, at(400))).toBe(false);
        expect(await store.leases.acquire('prod/host-identity', 'run-b', 300, at(10))).toBe(true);
      });

      it('lets another owner take an expired lease, which the old owner can then not release', async () => {
        expect(await store.leases.acquire('prod/unmanaged-pods', 'run-a', 300, T0)).toBe(true);
        expect(await store.leases.acquire('prod/unmanaged-pods', 'run-b', 300, at(300))).toBe(true);
        await store.leases.release('prod/unmanaged-pods', 'run-a');
        expect(await store.leases.acquire('prod/unmanaged-pods', 'run-c', 300, at(301))).toBe(false);
      });

      it('is released only by its owner', async () => {
        expect(await store.leases.acquire('prod/unmanaged-pods', 'run-a', 300, T0)).toBe(true);
        await store.leases.release('prod/unmanaged-pods', 'run-b');
        expect(await store.leases.acquire('prod/unmanaged-pods', 'run-b', 300, at(1))).toBe(false);
        await store.leases.release('prod/unmanaged-pods', 'run-a');
        expect(await store.leases.acquire('prod/unmanaged-pods', 'run-b', 300, at(2))).toBe(true);
      });

      it('releasing a lease nobody holds is a no-op', async () => {
        await expect(store.leases.release('prod/unmanaged-pods', 'run-a')).resolves.toBeUndefined();
      });

      it('says who holds it and until when, and nobody once it expired or was released', async () => {
        expect(await store.leases.holder('prod/x', T0)).toBeUndefined();
        await store.leases.acquire('prod/x', 'run-a', 300, T0);
        expect(await store.leases.holder('prod/x', at(10))).toEqual({
          owner: 'run-a',
          expiresAt: at(300).toISOString(),
        });
        expect(await store.leases.holder('prod/x', at(300))).toBeUndefined();
        await store.leases.acquire('prod/x', 'run-b', 300, at(300));
        await store.leases.release('prod/x', 'run-b');
        expect(await store.leases.holder('prod/x', at(301))).toBeUndefined();
      });

      it('is handed over only by its unexpired holder, and the one handed it holds it as its own', async () => {
        expect(await store.leases.acquire('prod/x', 'run-a', 60, T0)).toBe(true);
        expect(await store.leases.handOver('prod/x', 'run-b', 'run-c', 600, at(1))).toBe(false);
        expect(await store.leases.handOver('prod/x', 'run-a', 'next-a', 600, at(10))).toBe(true);
        expect(await store.leases.holder('prod/x', at(11))).toEqual({
          owner: 'next-a',
          expiresAt: at(610).toISOString(),
        });
        // Nobody else takes it in between, not even past the giver's own 60 seconds.
        expect(await store.leases.acquire('prod/x', 'run-b', 60, at(100))).toBe(false);
        expect(await store.leases.acquire('prod/x', 'run-a', 60, at(100))).toBe(false);
        expect(await store.leases.handOver('prod/x', 'run-a', 'run-b', 60, at(100))).toBe(false);
        // The one handed it passes it on again: to a delivery of its own.
        expect(await store.leases.handOver('prod/x', 'next-a', 'next-a/1', 60, at(200))).toBe(true);
        await store.leases.release('prod/x', 'next-a/1');
        expect(await store.leases.acquire('prod/x', 'run-b', 60, at(201))).toBe(true);
      });

      it('is not handed over once it expired', async () => {
        await store.leases.acquire('prod/x', 'run-a', 60, T0);
        expect(await store.leases.handOver('prod/x', 'run-a', 'next-a', 600, at(60))).toBe(false);
        expect(await store.leases.holder('prod/x', at(60))).toBeUndefined();
        expect(await store.leases.handOver('prod/y', 'run-a', 'next-a', 600, at(1))).toBe(false);
        expect(await store.leases.holder('prod/y', at(1))).toBeUndefined();
      });

      it('gives exactly one of 20 owners racing for it', async () => {
        const owners = Array.from({ length: 20 }, (_, i) => `run-${i}`);
        const taken = await Promise.all(
          owners.map((owner) => store.leases.acquire('prod/x', owner, 300, T0)),
        );
        expect(taken.filter(Boolean)).toHaveLength(1);
      });
    });

    describe('checkpoints', () => {
      const checkpoint = { steps: [{ id: 'a', summary: 'é 1 of 2' }], saved: { done: ['n-1', 'n-2'] } };

      it('loads what was saved under a run and an id, and nothing under another', async () => {
        await store.checkpoints.save('run-1', '2', checkpoint, 600, T0);
        expect(await store.checkpoints.load('run-1', '2', at(1))).toEqual(checkpoint);
        expect(await store.checkpoints.load('run-1', '3', at(1))).toBeUndefined();
        expect(await store.checkpoints.load('run-2', '2', at(1))).toBeUndefined();
      });

      it('replaces a checkpoint saved again under its id, and keeps other ids apart', async () => {
        await store.checkpoints.save('run-1', '2', checkpoint, 600, T0);
        await store.checkpoints.save('run-1', '3', { later: true }, 600, T0);
        await store.checkpoints.save('run-1', '2', { again: 1 }, 600, T0);
        expect(await store.checkpoints.load('run-1', '2', at(1))).toEqual({ again: 1 });
        expect(await store.checkpoints.load('run-1', '3', at(1))).toEqual({ later: true });
      });

      it('is gone once its time to live passed', async () => {
        await store.checkpoints.save('run-1', '2', checkpoint, 600, T0);
        expect(await store.checkpoints.load('run-1', '2', at(599))).toEqual(checkpoint);
        expect(await store.checkpoints.load('run-1', '2', at(600))).toBeUndefined();
      });

      it('hands out a copy: changing what was loaded changes nothing saved', async () => {
        await store.checkpoints.save('run-1', '2', checkpoint, 600, T0);
        const loaded = (await store.checkpoints.load('run-1', '2', at(1))) as typeof checkpoint;
        loaded.saved.done.push('n-3');
        expect(await store.checkpoints.load('run-1', '2', at(1))).toEqual(checkpoint);
      });
    });

    describe('brake', () => {
      const take = async (cluster: string, seconds: number) =>
        (await store.brake.take(cluster, 3, 60, at(seconds))) !== undefined;

      it('allows N writes in a window and refuses the N+1th, without counting it', async () => {
        expect([await take('prod', 0), await take('prod', 1), await take('prod', 2)]).toEqual([
          true,
          true,
          true,
        ]);
        expect(await take('prod', 3)).toBe(false);
        expect(await store.brake.state('prod', 3, 60, at(4))).toEqual({
          cluster: 'prod',
          used: 3,
          limit: 3,
          windowEndsAt: '2026-03-02T10:01:00.000Z',
          engaged: true,
        });
      });

      it('counts each cluster on its own', async () => {
        for (const second of [0, 1, 2]) await take('prod', second);
        expect(await take('staging', 3)).toBe(true);
        expect(await store.brake.state('staging', 3, 60, at(3))).toMatchObject({ used: 1, engaged: false });
      });

      it('slides: each write counts for exactly windowSeconds after it happened', async () => {
        for (const second of [0, 1, 2]) await take('prod', second);
        expect(await take('prod', 59)).toBe(false);
        expect(await take('prod', 60)).toBe(true);
        expect(await take('prod', 60.5)).toBe(false);
        expect(await store.brake.state('prod', 3, 60, at(61.5))).toEqual({
          cluster: 'prod',
          used: 2,
          limit: 3,
          windowEndsAt: '2026-03-02T10:01:02.000Z',
          engaged: false,
        });
      });

      it('never lets more than the limit through in any window, across what would be a fixed boundary', async () => {
        const accepted: number[] = [];
        for (let tenth = 0; tenth < 40; tenth++) {
          const second = 58 + tenth / 10;
          if (await take('prod', second)) accepted.push(second);
        }
        expect(accepted).toHaveLength(3);
      });

      it('gives back a write that did not happen', async () => {
        const ticket = await store.brake.take('prod', 1, 60, T0);
        expect(ticket).toEqual(expect.any(String));
        expect(await store.brake.take('prod', 1, 60, at(1))).toBeUndefined();
        await store.brake.refund('prod', ticket as string);
        expect(await store.brake.state('prod', 1, 60, at(1))).toMatchObject({ used: 0, engaged: false });
        expect(await store.brake.take('prod', 1, 60, at(2))).toEqual(expect.any(String));
      });

      it('gives back exactly the one write refunded: limit 3, take 3, refund 1 leaves 2 used', async () => {
        const tickets: (string | undefined)[] = [];
        for (const second of [0, 1, 2]) tickets.push(await store.brake.take('prod', 3, 60, at(second)));
        await store.brake.refund('prod', tickets[1] as string);
        expect(await store.brake.state('prod', 3, 60, at(3))).toEqual({
          cluster: 'prod',
          used: 2,
          limit: 3,
          windowEndsAt: '2026-03-02T10:01:00.000Z',
          engaged: false,
        });
        // A ticket given back twice, or never taken, gives nothing more back.
        await store.brake.refund('prod', tickets[1] as string);
        await store.brake.refund('prod', 'no-such-ticket');
        expect(await store.brake.state('prod', 3, 60, at(3))).toMatchObject({ used: 2 });
        expect(await take('prod', 4)).toBe(true);
        expect(await take('prod', 5)).toBe(false);
      });

      it('takes a refund on a cluster with no writes counted as nothing to give back', async () => {
        await store.brake.refund('prod', 'no-such-ticket');
        expect(await store.brake.state('prod', 3, 60, T0)).toMatchObject({ used: 0, engaged: false });
      });

      it('lets writes go again after a reset, up to the limit', async () => {
        for (const second of [0, 1, 2]) await take('prod', second);
        expect(await take('prod', 3)).toBe(false);
        await store.brake.reset('prod');
        expect(await store.brake.state('prod', 3, 60, at(4))).toMatchObject({ used: 0, engaged: false });
        expect([await take('prod', 5), await take('prod', 6), await take('prod', 7)]).toEqual([
          true,
          true,
          true,
        ]);
        expect(await take('prod', 8)).toBe(false);
      });

      it('a reset of one cluster leaves the others braked', async () => {
        for (const cluster of ['prod', 'staging'])
          for (const second of [0, 1, 2]) await take(cluster, second);
        await store.brake.reset('staging');
        expect(await take('prod', 3)).toBe(false);
        expect(await take('staging', 3)).toBe(true);
      });

      it('allows nothing with a zero limit', async () => {
        expect(await store.brake.take('prod', 0, 60, T0)).toBeUndefined();
        expect(await store.brake.state('prod', 0, 60, T0)).toMatchObject({ used: 0, engaged: true });
      });

      it('lets exactly `limit` of 20 concurrent writes through', async () => {
        const taken = await Promise.all(
          Array.from({ length: 20 }, () => store.brake.take('prod', 5, 60, T0)),
        );
        expect(taken.filter(Boolean)).toHaveLength(5);
        expect(await store.brake.state('prod', 5, 60, T0)).toMatchObject({ used: 5, engaged: true });
      });
    });

    describe('pairs', () => {
      const state = (version: number, owner?: string) => ({
        followedUp: false,
        version,
        ...(owner ? { owner } : {}),
      });

      it('writes a pair only over the version read, and says nothing of one never written', async () => {
        expect(await store.pairs.get('prod|unmanaged-pods|auto', T0)).toBeUndefined();
        expect(await store.pairs.put('prod|unmanaged-pods|auto', state(1, 'job-1'), 600, T0)).toBe(true);
        // A second first write (another admission that read nothing) loses.
        expect(await store.pairs.put('prod|unmanaged-pods|auto', state(1, 'job-2'), 600, T0)).toBe(false);
        expect(await store.pairs.put('prod|unmanaged-pods|auto', state(3), 600, at(1))).toBe(false);
        expect(await store.pairs.put('prod|unmanaged-pods|auto', state(2), 600, at(1))).toBe(true);
        expect(await store.pairs.put('prod|unmanaged-pods|auto', state(2, 'job-3'), 600, at(2))).toBe(false);
        expect(await store.pairs.get('prod|unmanaged-pods|auto', at(2))).toEqual(state(2));
        expect(await store.pairs.get('prod|tunnel-datapath|auto', at(2))).toBeUndefined();
      });

      it('forgets a pair once its window passed since its last write, and lets it start again', async () => {
        await store.pairs.put('prod|unmanaged-pods|auto', state(1, 'job-1'), 600, T0);
        await store.pairs.put('prod|unmanaged-pods|auto', state(2), 600, at(100));
        expect(await store.pairs.get('prod|unmanaged-pods|auto', at(699))).toEqual(state(2));
        expect(await store.pairs.get('prod|unmanaged-pods|auto', at(700))).toBeUndefined();
        expect(await store.pairs.put('prod|unmanaged-pods|auto', state(3), 600, at(700))).toBe(false);
        expect(await store.pairs.put('prod|unmanaged-pods|auto', state(1, 'job-9'), 600, at(700))).toBe(true);
      });

      it('is not changed by a reader changing the state it read', async () => {
        await store.pairs.put('prod|unmanaged-pods|auto', state(1, 'job-1'), 600, T0);
        const read = await store.pairs.get('prod|unmanaged-pods|auto', T0);
        if (read) read.owner = 'job-2';
        expect(await store.pairs.get('prod|unmanaged-pods|auto', T0)).toEqual(state(1, 'job-1'));
      });

      it('lets exactly one of 20 concurrent writers of the same version through', async () => {
        const landed = await Promise.all(
          Array.from({ length: 20 }, (_, i) => store.pairs.put('p', state(1, `job-${i}`), 600, T0)),
        );
        expect(landed.filter(Boolean)).toHaveLength(1);
      });
    });

    describe('runs', () => {
      const older = run('run-1', 'prod', '2026-03-02T10:00:00.000Z');
      const middle = run('run-2', 'staging', '2026-03-02T10:05:00.000Z');
      const newer = run('run-3', 'prod', '2026-03-02T10:10:00.000Z');
      const putAll = async () => {
        for (const record of [middle, newer, older]) await store.runs.put(record);
      };

      it('gets a run by id, and undefined for an unknown one', async () => {
        const done = run('run-9', 'prod', T0.toISOString(), {
          status: 'done',
          verdict: 'remediated',
          plan: ['evict default/web-1'],
          actions: ['evict default/web-1: evicted'],
          startedAt: at(1).toISOString(),
          finishedAt: at(9).toISOString(),
          error: undefined,
        });
        await store.runs.put(done);
        expect(await store.runs.get('run-9')).toEqual(done);
        expect(await store.runs.get('run-404')).toBeUndefined();
      });

      it('replaces a run put again with the same id', async () => {
        await store.runs.put(older);
        await store.runs.put({ ...older, status: 'running', startedAt: at(1).toISOString() });
        expect(await store.runs.get('run-1')).toMatchObject({
          status: 'running',
          startedAt: at(1).toISOString(),
        });
        expect(await store.runs.list()).toHaveLength(1);
      });

      it('advances a record only from the state and owner it expects', async () => {
        await store.runs.put(older);
        const running = { ...older, status: 'running' as const, owner: 'delivery-a' };
        expect(await store.runs.advance(running, { status: ['queued'], jobId: older.jobId })).toBe(true);
        // A second delivery that read `queued` before the first started loses.
        const duplicate = { ...older, status: 'duplicate' as const };
        expect(await store.runs.advance(duplicate, { status: ['queued'], jobId: older.jobId })).toBe(false);
        // Only the delivery that runs it finishes it.
        const done = { ...running, status: 'done' as const };
        expect(await store.runs.advance(done, { status: ['running'], owner: 'delivery-b' })).toBe(false);
        expect(await store.runs.get('run-1')).toEqual(running);
        expect(await store.runs.advance(done, { status: ['running'], owner: 'delivery-a' })).toBe(true);
        expect(await store.runs.get('run-1')).toEqual(done);
        expect(await store.runs.advance(done, { status: ['queued'], jobId: 'job-other' })).toBe(false);
        expect(
          await store.runs.advance(run('run-404', 'prod', T0.toISOString()), { status: ['queued'] }),
        ).toBe(false);
      });

      it('creates a record only when none has its id, leaving the one there as it was', async () => {
        expect(await store.runs.create(older)).toBe(true);
        const running = { ...older, status: 'running' as const, owner: 'delivery-a' };
        await store.runs.put(running);
        expect(await store.runs.create(older)).toBe(false);
        expect(await store.runs.get('run-1')).toEqual(running);
        expect(await store.runs.list()).toHaveLength(1);
      });

      it('lets exactly one of 10 deliveries racing start a run', async () => {
        await store.runs.put(older);
        const started = await Promise.all(
          Array.from({ length: 10 }, (_, i) =>
            store.runs.advance({ ...older, status: 'running', owner: `d-${i}` }, { status: ['queued'] }),
          ),
        );
        expect(started.filter(Boolean)).toHaveLength(1);
      });

      it('keeps what was put, whatever the caller does with its copy', async () => {
        const record = run('run-1', 'prod', T0.toISOString(), { plan: ['evict default/web-1'] });
        await store.runs.put(record);
        record.plan.push('evict default/web-2');
        const read = await store.runs.get('run-1');
        read?.plan.push('evict default/web-3');
        expect((await store.runs.get('run-1'))?.plan).toEqual(['evict default/web-1']);
      });

      it('lists newest first by queuedAt', async () => {
        await putAll();
        expect((await store.runs.list()).map((r) => r.runId)).toEqual(['run-3', 'run-2', 'run-1']);
      });

      it('orders runs queued at the same time by id, in byte order as DynamoDB sorts keys', async () => {
        for (const id of ['run-B', 'run-a', 'run-C']) await store.runs.put(run(id, 'prod', T0.toISOString()));
        expect((await store.runs.list()).map((r) => r.runId)).toEqual(['run-a', 'run-C', 'run-B']);
      });

      it('filters by cluster', async () => {
        await putAll();
        expect((await store.runs.list({ cluster: 'prod' })).map((r) => r.runId)).toEqual(['run-3', 'run-1']);
        expect(await store.runs.list({ cluster: 'staging' })).toEqual([middle]);
        expect(await store.runs.list({ cluster: 'nowhere' })).toEqual([]);
      });

      it('returns at most `limit` runs, the newest', async () => {
        await putAll();
        expect((await store.runs.list({ limit: 2 })).map((r) => r.runId)).toEqual(['run-3', 'run-2']);
        expect((await store.runs.list({ cluster: 'prod', limit: 1 })).map((r) => r.runId)).toEqual(['run-3']);
        expect(await store.runs.list({ limit: 10 })).toHaveLength(3);
        expect(await store.runs.list({ limit: 0 })).toEqual([]);
        expect(await store.runs.list({ limit: -1 })).toEqual([]);
      });
    });
  });
}
