import type { CreateTableCommandInput } from '@aws-sdk/client-dynamodb';

/**
 * The single table behind the DynamoDB store. Every item has the string keys `pk` and `sk`.
 *
 * | item   | pk                | sk                    | attributes                                   |
 * |--------|-------------------|-----------------------|----------------------------------------------|
 * | dedupe | `dedupe#<key>`    | `dedupe`              | `ttl`                                        |
 * | lease  | `lease#<key>`     | `lease`               | `owner`, `ttl`                               |
 * | brake  | `brake#<cluster>` | `log`                 | `writes` (`{at, id}` that count), `version`, `ttl` |
 * | run    | `run#<runId>`     | `run`                 | `record`, `runCluster`, `runFeed`, `runOrder`|
 * | pair   | `pair#<key>`      | `pair`                | `state` (a pair's runs and follow-up), `version`, `ttl` |
 * | thread | `thread#<key>`    | `thread`              | `channel`, `ts` (a chat thread's root)       |
 *
 * `ttl` is epoch seconds, the table's TTL attribute. DynamoDB deletes expired items lazily (within
 * days), so the dedupe, lease and pair conditions treat an item whose `ttl` has passed as absent. The brake
 * is a sliding window: one item per cluster lists the writes that still count, replaced only under
 * its `version`, so concurrent writers never count past the limit.
 *
 * Runs are listed newest first through two indexes sorted by `runOrder` (`<queuedAt>#<runId>`),
 * projecting everything so a listing needs no extra reads:
 * - `runs-by-cluster`: partition `runCluster` = `runs#<cluster>`.
 * - `runs-by-time`: partition `runFeed` = `runs`, one partition for every run. Runs come at incident
 *   pace, far below a partition's ~1,000 writes/s, and index partitions have no size cap.
 * A page narrows by key (the cluster's index, `since` and the cursor as a `runOrder` range) and
 * filters runbook, verdict and source on what the index gives: they take a handful of values each, so an
 * index of their own would save little, and every page's reads are bounded (runs.ts).
 * Indexes are eventually consistent: a run just put may show in a listing a moment later.
 */

export const TTL_ATTRIBUTE = 'ttl';

export const RUNS_BY_CLUSTER = {
  indexName: 'runs-by-cluster',
  partitionKey: 'runCluster',
  sortKey: 'runOrder',
};
export const RUNS_BY_TIME = { indexName: 'runs-by-time', partitionKey: 'runFeed', sortKey: 'runOrder' };
export const RUN_FEED = 'runs';

export interface ItemKey {
  pk: string;
  sk: string;
}

export const dedupeKey = (key: string): ItemKey => ({ pk: `dedupe#${key}`, sk: 'dedupe' });
export const leaseKey = (key: string): ItemKey => ({ pk: `lease#${key}`, sk: 'lease' });
export const brakeKey = (cluster: string): ItemKey => ({ pk: `brake#${cluster}`, sk: 'log' });
export const pairKey = (key: string): ItemKey => ({ pk: `pair#${key}`, sk: 'pair' });
export const runKey = (runId: string): ItemKey => ({ pk: `run#${runId}`, sk: 'run' });
export const threadKey = (key: string): ItemKey => ({ pk: `thread#${key}`, sk: 'thread' });
export const clusterRuns = (cluster: string): string => `runs#${cluster}`;

/** The table as CreateTable takes it (local servers, tests); the CDK stack declares the same shape. */
export function tableDefinition(table: string): CreateTableCommandInput {
  const stringKeys = ['pk', 'sk', RUNS_BY_CLUSTER.partitionKey, RUNS_BY_TIME.partitionKey, 'runOrder'];
  const index = ({ indexName, partitionKey, sortKey }: typeof RUNS_BY_TIME) => ({
    IndexName: indexName,
    KeySchema: [
      { AttributeName: partitionKey, KeyType: 'HASH' as const },
      { AttributeName: sortKey, KeyType: 'RANGE' as const },
    ],
    Projection: { ProjectionType: 'ALL' as const },
  });
  return {
    TableName: table,
    BillingMode: 'PAY_PER_REQUEST',
    AttributeDefinitions: stringKeys.map((name) => ({ AttributeName: name, AttributeType: 'S' })),
    KeySchema: [
      { AttributeName: 'pk', KeyType: 'HASH' },
      { AttributeName: 'sk', KeyType: 'RANGE' },
    ],
    GlobalSecondaryIndexes: [index(RUNS_BY_CLUSTER), index(RUNS_BY_TIME)],
  };
}
