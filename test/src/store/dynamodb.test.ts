import { DeleteCommand, DynamoDBDocumentClient, GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { dynamoRuns } from '../../../src/store/dynamodb/runs.ts';
import { dynamoStore, type StateStore } from '../../../src/store/index.ts';
import { type LocalDynamoDB, startLocalDynamoDB } from './local-dynamodb.ts';
import { describeRunPages } from './run-pages-suite.ts';
import { describeStateStore, run } from './state-store-suite.ts';

const T0 = new Date('2026-03-02T10:00:00.000Z');
const T0_SECONDS = T0.getTime() / 1000;

let local: LocalDynamoDB;
beforeAll(async () => {
  local = await startLocalDynamoDB();
});
afterAll(async () => {
  await local.stop();
});

describeStateStore('dynamoStore against dynalite', async () =>
  dynamoStore({ client: DynamoDBDocumentClient.from(local.client), table: await local.createTable() }),
);

describeRunPages('dynamoStore against dynalite', async () =>
  dynamoStore({ client: local.client, table: await local.createTable() }),
);

describe('dynamoStore table layout', () => {
  let table: string;
  let db: DynamoDBDocumentClient;
  let store: StateStore;
  beforeEach(async () => {
    table = await local.createTable();
    db = DynamoDBDocumentClient.from(local.client);
    store = dynamoStore({ client: local.client, table });
  });
  const item = async (pk: string, sk: string) =>
    (await db.send(new GetCommand({ TableName: table, Key: { pk, sk } }))).Item;

  it('writes dedupe, lease and brake items with their TTL in epoch seconds', async () => {
    await store.dedupe.claim('alert-1', 600, T0);
    await store.leases.acquire('prod/unmanaged-pods', 'run-a', 300, T0);
    await store.brake.take('prod', 3, 60, T0);
    expect(await item('dedupe#alert-1', 'dedupe')).toEqual({
      pk: 'dedupe#alert-1',
      sk: 'dedupe',
      ttl: T0_SECONDS + 600,
    });
    expect(await item('lease#prod/unmanaged-pods', 'lease')).toMatchObject({
      owner: 'run-a',
      ttl: T0_SECONDS + 300,
    });
    expect(await item('brake#prod', 'log')).toMatchObject({
      writes: [{ at: T0.getTime(), id: expect.any(String) }],
      version: 1,
      ttl: T0_SECONDS + 60,
    });
  });

  it('keeps a checkpoint larger than an item in parts, and reads it whole', async () => {
    // 100,000 node names: about 3 MB of JSON, eight times what one item holds.
    const nodes = Array.from(
      { length: 100_000 },
      (_, i) => `ip-10-${i % 250}-${i}.eu-west-1.compute.internal`,
    );
    await store.checkpoints.save('run-1', '2', { nodes }, 600, T0);
    const head = await item('checkpoint#run-1', '2');
    expect(head).toMatchObject({ parts: expect.any(Number), ttl: T0_SECONDS + 600 });
    expect(head?.parts).toBeGreaterThan(8);
    expect(
      await item('checkpoint#run-1', `2#${String((head?.parts as number) - 1).padStart(5, '0')}`),
    ).toMatchObject({
      ttl: T0_SECONDS + 600,
    });
    expect(((await store.checkpoints.load('run-1', '2', T0)) as { nodes: string[] }).nodes).toEqual(nodes);
  });

  it('reads a checkpoint saved again with fewer parts as saved, and writes no part past its count', async () => {
    const nodes = Array.from({ length: 30_000 }, (_, i) => `ip-10-0-${i}.eu-west-1.compute.internal`);
    await store.checkpoints.save('run-1', '2', { nodes }, 600, T0);
    await store.checkpoints.save('run-1', '2', { nodes: nodes.slice(0, 10_000) }, 600, T0);
    expect(((await store.checkpoints.load('run-1', '2', T0)) as { nodes: string[] }).nodes).toEqual(
      nodes.slice(0, 10_000),
    );
    const head = await item('checkpoint#run-1', '2');
    expect(head?.parts).toBe(2);
    expect(await item('checkpoint#run-1', '2#00002')).toMatchObject({ ttl: T0_SECONDS + 600 });
    await store.checkpoints.save('run-1', '3', { small: true }, 600, T0);
    expect(await item('checkpoint#run-1', '3#00001')).toBeUndefined();
  });

  it('reads no checkpoint whose parts are not all there', async () => {
    const nodes = Array.from({ length: 30_000 }, (_, i) => `ip-10-0-${i}.eu-west-1.compute.internal`);
    await store.checkpoints.save('run-1', '2', { nodes }, 600, T0);
    await db.send(new DeleteCommand({ TableName: table, Key: { pk: 'checkpoint#run-1', sk: '2#00001' } }));
    expect(await store.checkpoints.load('run-1', '2', T0)).toBeUndefined();
  });

  it('treats an expired item that TTL has not deleted yet as absent', async () => {
    await store.dedupe.claim('alert-1', 600, T0);
    const later = new Date(T0.getTime() + 700_000);
    expect(await item('dedupe#alert-1', 'dedupe')).toBeDefined();
    expect(await store.dedupe.claim('alert-1', 600, later)).toBe(true);
    expect(await item('dedupe#alert-1', 'dedupe')).toMatchObject({ ttl: T0_SECONDS + 700 + 600 });
  });

  it('reset deletes the brake item of the cluster, and only of that cluster', async () => {
    for (const seconds of [0, 60, 120])
      await store.brake.take('prod', 3, 60, new Date(T0.getTime() + seconds * 1000));
    await store.brake.take('staging', 3, 60, T0);
    await store.brake.reset('prod');
    const windows = async (cluster: string) =>
      (
        await db.send(
          new QueryCommand({
            TableName: table,
            KeyConditionExpression: 'pk = :pk',
            ExpressionAttributeValues: { ':pk': `brake#${cluster}` },
          }),
        )
      ).Items;
    expect(await windows('prod')).toEqual([]);
    expect(await windows('staging')).toHaveLength(1);
  });

  it('stores runs with their index keys, dropping undefined fields', async () => {
    await store.runs.put(run('run-1', 'prod', T0.toISOString(), { verdict: undefined }));
    const stored = await item('run#run-1', 'run');
    expect(stored).toMatchObject({
      runCluster: 'runs#prod',
      runFeed: 'runs',
      runOrder: `${T0.toISOString()}#run-1`,
      runsByClusterRunbookSource: '["prod","unmanaged-pods","alertmanager"]',
    });
    expect(stored?.record).not.toHaveProperty('verdict');
    // No verdict yet: in none of the verdict's indexes.
    expect(Object.keys(stored ?? {}).filter((key) => key.includes('Verdict'))).toEqual([]);
  });

  it('pages through listings larger than one query page (1 MB)', async () => {
    const padding = 'x'.repeat(100_000);
    const queued = (i: number) => new Date(T0.getTime() + i * 1000).toISOString();
    for (let i = 0; i < 15; i += 1)
      await store.runs.put(run(`run-${i}`, 'prod', queued(i), { reason: padding }));
    const listed = await store.runs.list({ cluster: 'prod' });
    expect(listed).toHaveLength(15);
    expect(listed[0]?.runId).toBe('run-14');
    expect(await store.runs.list({ limit: 12 })).toHaveLength(12);
  });

  it('answers a rare verdict of one source from its own index: the page reads no run it does not return', async () => {
    // A budget of a page and its look-ahead: a filter applied after reading would come back empty.
    const runs = dynamoRuns(db, table, 12);
    const queued = (i: number) => new Date(T0.getTime() + i * 1000).toISOString();
    for (let i = 0; i < 130; i += 1)
      await runs.put(
        run(`run-${i}`, i % 2 ? 'prod' : 'staging', queued(i), {
          status: 'done',
          verdict: i < 3 ? 'failed' : 'healthy',
          source: i === 1 ? 'schedule' : 'alertmanager',
        }),
      );
    expect(await runs.page({ verdict: 'failed', limit: 10 })).toEqual({
      runs: [
        expect.objectContaining({ runId: 'run-2' }),
        expect.objectContaining({ runId: 'run-1' }),
        expect.objectContaining({ runId: 'run-0' }),
      ],
    });
    const rare = await runs.page({ verdict: 'failed', source: 'schedule', cluster: 'prod', limit: 10 });
    expect(rare.runs.map((r) => r.runId)).toEqual(['run-1']);
    expect(rare.next).toBeUndefined();
    expect((await runs.page({ source: 'schedule', runbook: 'host-identity', limit: 10 })).runs).toEqual([]);
    // A run with no verdict yet is in no verdict's index, and still in the others.
    await runs.put(run('run-running', 'prod', queued(200), { status: 'running', verdict: undefined }));
    expect((await runs.page({ cluster: 'prod', limit: 1 })).runs[0]?.runId).toBe('run-running');
    expect((await runs.page({ verdict: 'healthy', limit: 1 })).runs[0]?.runId).toBe('run-129');
  });

  it('propagates errors other than a failed condition', async () => {
    const missing = dynamoStore({ client: local.client, table: 'no-such-table' });
    await expect(missing.dedupe.claim('alert-1', 600, T0)).rejects.toMatchObject({
      name: 'ResourceNotFoundException',
    });
    await expect(missing.leases.release('prod/x', 'run-a')).rejects.toMatchObject({
      name: 'ResourceNotFoundException',
    });
    await expect(missing.brake.take('prod', 3, 60, T0)).rejects.toMatchObject({
      name: 'ResourceNotFoundException',
    });
  });
});
