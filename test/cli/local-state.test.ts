import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import dynalite from 'dynalite';
import { describe, expect, it } from 'vitest';
import { openLocalState } from '../../cli/local-state.ts';
import { dynamoStore, type StateStore, tableDefinition } from '../../src/store/index.ts';
import { run } from '../src/store/state-store-suite.ts';

describe('openLocalState', () => {
  it('takes a write at once on a fresh state directory', async () => {
    for (let i = 0; i < 10; i++) {
      const state = await openLocalState(mkdtempSync(join(tmpdir(), 'responder-state-')));
      try {
        await state.store.threads.set('prod/unmanaged-pods', { channel: 'C1', ts: `${i}.0` });
        expect(await state.store.threads.get('prod/unmanaged-pods')).toMatchObject({ ts: `${i}.0` });
      } finally {
        await state.close();
      }
    }
  });

  it('keeps what one command wrote for the next', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'responder-state-'));
    const first = await openLocalState(dir);
    await first.store.threads.set('prod/host-identity', { channel: 'C1', ts: '1.0' });
    await first.close();
    const second = await openLocalState(dir);
    expect(await second.store.threads.get('prod/host-identity')).toMatchObject({ ts: '1.0' });
    await second.close();
  });
});

describe('the local state, one command at a time', () => {
  it('tells a second opener who holds it, and opens once it is closed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'responder-state-'));
    const first = await openLocalState(dir);
    await expect(openLocalState(dir)).rejects.toThrow(
      new RegExp(`the local state in ${dir} is in use by \`responder .*\` \\(pid ${process.pid} on `),
    );
    await first.close();
    const second = await openLocalState(dir);
    await second.close();
  });

  it('takes over the lock of a process that is gone from this host', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'responder-state-'));
    const gone = spawnSync(process.execPath, ['-e', '']).pid;
    writeFileSync(
      join(dir, 'responder.lock'),
      JSON.stringify({
        pid: gone,
        host: hostname(),
        command: 'serve --state',
        since: new Date().toISOString(),
      }),
    );
    const state = await openLocalState(dir);
    await state.close();
  });
});

/** `work` on the local state as earlier versions kept it: the DynamoDB store on dynalite in `<dir>/dynamodb`. */
async function inLegacyState(dir: string, work: (store: StateStore) => Promise<void>): Promise<void> {
  const server = dynalite({ path: join(dir, 'dynamodb'), createTableMs: 0 });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const client = new DynamoDBClient({
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    region: 'local',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  try {
    await client.send(new CreateTableCommand(tableDefinition('cilium-responder-local')));
    await work(dynamoStore({ client, table: 'cilium-responder-local' }));
  } finally {
    client.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

describe('a state directory an earlier version kept in dynalite', () => {
  it('is read once: its history, brake, leases, dedupe keys, pairs and threads are all there', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'responder-state-'));
    const now = new Date();
    const queuedAt = (ago: number) => new Date(now.getTime() - ago * 1000).toISOString();
    await inLegacyState(dir, async (store) => {
      await store.runs.put(run('r1', 'prod', queuedAt(60), { status: 'done', verdict: 'healthy' }));
      await store.runs.put(run('r2', 'prod', queuedAt(30), { status: 'done', verdict: 'remediated' }));
      await store.brake.take('prod', 5, 900, now);
      await store.brake.take('prod', 5, 900, now);
      await store.leases.acquire('prod|host-identity', 'job-9/a (pid 1 on elsewhere)', 600, now);
      await store.dedupe.claim('alert#1', 600, now);
      await store.pairs.put(
        'prod|unmanaged-pods|auto',
        { owner: 'job-3', followedUp: false, version: 1 },
        600,
        now,
      );
      await store.threads.set('prod/unmanaged-pods', { channel: 'C1', ts: '1.0', problem: 'p' });
    });
    const state = await openLocalState(dir);
    try {
      const { store } = state;
      expect((await store.runs.list()).map((r) => [r.runId, r.verdict])).toEqual([
        ['r2', 'remediated'],
        ['r1', 'healthy'],
      ]);
      expect((await store.brake.state('prod', 5, 900, now)).used).toBe(2);
      expect(await store.leases.acquire('prod|host-identity', 'someone else', 600, now)).toBe(false);
      expect(await store.dedupe.claim('alert#1', 600, now)).toBe(false);
      expect(await store.pairs.get('prod|unmanaged-pods|auto', now)).toMatchObject({
        owner: 'job-3',
        version: 1,
      });
      expect(await store.threads.get('prod/unmanaged-pods')).toEqual({
        channel: 'C1',
        ts: '1.0',
        problem: 'p',
      });
    } finally {
      await state.close();
    }
    expect(existsSync(join(dir, 'state.jsonl'))).toBe(true);
    // Read once: what the next command writes is its own, not the old table's again.
    const next = await openLocalState(dir);
    await next.store.threads.set('prod/unmanaged-pods', { channel: 'C1', ts: '2.0' });
    await next.close();
    const after = await openLocalState(dir);
    expect(await after.store.threads.get('prod/unmanaged-pods')).toEqual({ channel: 'C1', ts: '2.0' });
    await after.close();
  }, 60_000);
});
