import { ConditionalCheckFailedException, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { dynamoStore, type StateStore } from '../../../src/store/index.ts';
import { type LocalDynamoDB, startLocalDynamoDB } from './local-dynamodb.ts';

const T0 = new Date('2026-03-02T10:00:00.000Z');
const T0_SECONDS = T0.getTime() / 1000;
const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000);

/** A store whose document client is the one aws-sdk-client-mock answers for (mockClient, below). */
const storeOnMockedClient = () =>
  dynamoStore({
    client: DynamoDBDocumentClient.from(
      new DynamoDBClient({ region: 'eu-west-1', credentials: { accessKeyId: 'x', secretAccessKey: 'x' } }),
    ),
    table: 'state',
  });

describe('the DynamoDB brake item', () => {
  let local: LocalDynamoDB;
  let table: string;
  let store: StateStore;
  beforeAll(async () => {
    local = await startLocalDynamoDB();
  });
  afterAll(() => local.stop());
  beforeEach(async () => {
    table = await local.createTable();
    store = dynamoStore({ client: local.client, table });
  });
  const brakeItem = async () =>
    (
      await DynamoDBDocumentClient.from(local.client).send(
        new GetCommand({ TableName: table, Key: { pk: 'brake#prod', sk: 'log' } }),
      )
    ).Item;

  it('after a refund, lives a day past the latest write still counted', async () => {
    const first = await store.brake.take('prod', 3, 60, T0);
    await store.brake.take('prod', 3, 60, at(10.5));
    await store.brake.refund('prod', first as string);
    expect(await brakeItem()).toMatchObject({
      writes: [{ at: at(10.5).getTime() }],
      version: 3,
      ttl: T0_SECONDS + 11 + 24 * 3600,
    });
  });

  it('is left as it was by a refund of a ticket it does not hold', async () => {
    await store.brake.take('prod', 3, 60, T0);
    const before = await brakeItem();
    await store.brake.refund('prod', 'no-such-ticket');
    expect(await brakeItem()).toEqual(before);
  });
});

describe('the DynamoDB brake under contention', () => {
  let db: ReturnType<typeof mockClient>;
  beforeEach(() => {
    // Every document client from here on: another writer always wins the race.
    db = mockClient(DynamoDBDocumentClient);
  });
  afterEach(() => db.restore());

  it('reads its log strongly consistent, and gives up after 60 lost races without writing', async () => {
    db.on(GetCommand).resolves({ Item: { pk: 'brake#prod', sk: 'log', writes: [], version: 7 } });
    db.on(PutCommand).rejects(new ConditionalCheckFailedException({ message: 'lost', $metadata: {} }));
    const store = storeOnMockedClient();

    await expect(store.brake.take('prod', 3, 60, T0)).rejects.toThrow(
      'the brake of prod is too contended to check; the write is not made',
    );
    expect(db.commandCalls(PutCommand)).toHaveLength(60);
    const reads = db
      .commandCalls(GetCommand)
      .map((call) => call.args[0].input as { ConsistentRead?: boolean });
    expect(reads).toHaveLength(60);
    // An eventually consistent read could miss a write just made, and let one more through.
    expect(reads.every((read) => read.ConsistentRead === true)).toBe(true);
  }, 30_000);
});

describe('the DynamoDB lease holder', () => {
  let db: ReturnType<typeof mockClient>;
  beforeEach(() => {
    db = mockClient(DynamoDBDocumentClient);
  });
  afterEach(() => db.restore());

  it('is read strongly consistent: a lease taken a moment ago is not reported free', async () => {
    // As DynamoDB may answer just after a write: the consistent read sees the lease, a stale one does not.
    const lease = { pk: 'lease#prod/unmanaged-pods', sk: 'lease', owner: 'run-a', ttl: T0_SECONDS + 300 };
    db.on(GetCommand).callsFake((input: { ConsistentRead?: boolean }) => ({
      Item: input.ConsistentRead ? lease : undefined,
    }));
    const store = storeOnMockedClient();

    expect(await store.leases.holder('prod/unmanaged-pods', at(1))).toEqual({
      owner: 'run-a',
      expiresAt: at(300).toISOString(),
    });
  });
});
