import { type DynamoDBDocumentClient, GetCommand, PutCommand, paginateQuery } from '@aws-sdk/lib-dynamodb';
import { runOrderKey } from '../run-order.ts';
import type { RunExpectation, RunRecord, RunStore } from '../types.ts';
import { conditionally } from './conditional.ts';
import { clusterRuns, RUN_FEED, RUNS_BY_CLUSTER, RUNS_BY_TIME, runKey } from './layout.ts';

/** Optional fields left undefined cannot be marshalled; a JSON copy drops them at any depth. */
function storable(record: RunRecord): RunRecord {
  return JSON.parse(JSON.stringify(record)) as RunRecord;
}

/** The condition of `advance`, on the stored record's own fields. */
function condition(expected: RunExpectation) {
  const statuses = expected.status.map((_, i) => `:status${i}`);
  const clauses = [`#record.#status IN (${statuses.join(', ')})`];
  const names: Record<string, string> = { '#record': 'record', '#status': 'status' };
  const values: Record<string, string> = Object.fromEntries(
    expected.status.map((s, i) => [`:status${i}`, s]),
  );
  for (const field of ['jobId', 'owner'] as const) {
    const value = expected[field];
    if (value === undefined) continue;
    clauses.push(`#record.#${field} = :${field}`);
    names[`#${field}`] = field;
    values[`:${field}`] = value;
  }
  return {
    ConditionExpression: clauses.join(' AND '),
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
  };
}

export function dynamoRuns(db: DynamoDBDocumentClient, table: string): RunStore {
  const newestFirst = (cluster: string | undefined) => {
    const index = cluster === undefined ? RUNS_BY_TIME : RUNS_BY_CLUSTER;
    return {
      TableName: table,
      IndexName: index.indexName,
      KeyConditionExpression: '#partition = :partition',
      ExpressionAttributeNames: { '#partition': index.partitionKey },
      ExpressionAttributeValues: { ':partition': cluster === undefined ? RUN_FEED : clusterRuns(cluster) },
      ScanIndexForward: false,
    };
  };
  const item = (record: RunRecord) => ({
    ...runKey(record.runId),
    [RUNS_BY_CLUSTER.partitionKey]: clusterRuns(record.cluster),
    [RUNS_BY_TIME.partitionKey]: RUN_FEED,
    [RUNS_BY_TIME.sortKey]: runOrderKey(record),
    record: storable(record),
  });
  return {
    async put(record) {
      await db.send(new PutCommand({ TableName: table, Item: item(record) }));
    },
    create: (record) =>
      conditionally(() =>
        db.send(
          new PutCommand({
            TableName: table,
            Item: item(record),
            ConditionExpression: 'attribute_not_exists(pk)',
          }),
        ),
      ),
    advance: (record, expected) =>
      conditionally(() =>
        db.send(new PutCommand({ TableName: table, Item: item(record), ...condition(expected) })),
      ),
    async get(runId) {
      const { Item } = await db.send(
        new GetCommand({ TableName: table, Key: runKey(runId), ConsistentRead: true }),
      );
      return Item?.record as RunRecord | undefined;
    },
    async list({ cluster, limit } = {}) {
      if (limit !== undefined && limit <= 0) return [];
      const records: RunRecord[] = [];
      for await (const page of paginateQuery({ client: db, pageSize: limit }, newestFirst(cluster))) {
        for (const item of page.Items ?? []) {
          records.push(item.record as RunRecord);
          if (records.length === limit) return records;
        }
      }
      return records;
    },
  };
}
