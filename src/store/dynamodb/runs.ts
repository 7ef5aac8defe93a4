import { type DynamoDBDocumentClient, GetCommand, PutCommand, paginateQuery } from '@aws-sdk/lib-dynamodb';
import { runOrderKey } from '../run-order.ts';
import type { RunRecord, RunStore } from '../types.ts';
import { clusterRuns, RUN_FEED, RUNS_BY_CLUSTER, RUNS_BY_TIME, runKey } from './layout.ts';

/** Optional fields left undefined cannot be marshalled; a JSON copy drops them at any depth. */
function storable(record: RunRecord): RunRecord {
  return JSON.parse(JSON.stringify(record)) as RunRecord;
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
  return {
    async put(record) {
      await db.send(
        new PutCommand({
          TableName: table,
          Item: {
            ...runKey(record.runId),
            [RUNS_BY_CLUSTER.partitionKey]: clusterRuns(record.cluster),
            [RUNS_BY_TIME.partitionKey]: RUN_FEED,
            [RUNS_BY_TIME.sortKey]: runOrderKey(record),
            record: storable(record),
          },
        }),
      );
    },
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
