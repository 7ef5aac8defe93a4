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
 * | checkpoint | `checkpoint#<runId>` | `<id>`         | `parts` (how many), `ttl`                    |
 * | its parts  | `checkpoint#<runId>` | `<id>#<part>`  | `data` (bytes of its JSON), `ttl`            |
 *
 * A checkpoint may be larger than an item (400 KB): its JSON is cut into parts, written before
 * the item that counts them, so a checkpoint is read whole or not at all.
 *
 * `ttl` is epoch seconds, the table's TTL attribute. DynamoDB deletes expired items lazily (within
 * days), so the dedupe, lease and pair conditions treat an item whose `ttl` has passed as absent. The brake
 * is a sliding window: one item per cluster lists the writes that still count, replaced only under
 * its `version`, so concurrent writers never count past the limit.
 *
 * Runs are listed newest first through indexes sorted by `runOrder` (`<queuedAt>#<runId>`),
 * projecting everything so a listing needs no extra reads:
 * - `runs-by-time`: partition `runFeed` = `runs`, one partition for every run. Runs come at incident
 *   pace, far below a partition's ~1,000 writes/s, and index partitions have no size cap.
 * - `runs-by-cluster`: partition `runCluster` = `runs#<cluster>`.
 * - one index for every other combination of cluster, runbook, verdict and source
 *   (`runs-by-runbook-verdict`, partition `runsByRunbookVerdict` = `["<runbook>","<verdict>"]`):
 *   an item carries a combination's key only when it has every field (a run without a verdict yet
 *   is in none of the verdict's indexes).
 * A page is one key of one index (`since` and the cursor a `runOrder` range), never a filter on what
 * an index read: a rare verdict of one source answers a page as fast as the feed. 15 indexes, so a
 * run's put writes 16 copies: runs come at incident pace, and the table's reads stay Query only.
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

export type RunIndex = typeof RUNS_BY_TIME;
/** What a listing narrows by, each combination with an index of its own. */
export const RUN_FILTER_FIELDS = ['cluster', 'runbook', 'verdict', 'source'] as const;
export type RunFilterField = (typeof RUN_FILTER_FIELDS)[number];

/** The index of one combination of filter fields (in RUN_FILTER_FIELDS' order), and its key. */
export interface FilterIndex {
  fields: readonly RunFilterField[];
  index: RunIndex;
  /** The partition key's value for these values of the fields. */
  key(values: readonly string[]): string;
}

const capitalized = (field: string) => `${field[0]?.toUpperCase()}${field.slice(1)}`;

/** Every non-empty combination; cluster alone is runs-by-cluster, which came first. */
export const FILTER_INDEXES: readonly FilterIndex[] = Array.from(
  { length: 2 ** RUN_FILTER_FIELDS.length - 1 },
  (_, i) => RUN_FILTER_FIELDS.filter((_, bit) => ((i + 1) >> bit) & 1),
).map((fields): FilterIndex => {
  if (fields.length === 1 && fields[0] === 'cluster')
    return { fields, index: RUNS_BY_CLUSTER, key: ([cluster]) => clusterRuns(cluster as string) };
  return {
    fields,
    index: {
      indexName: `runs-by-${fields.join('-')}`,
      partitionKey: `runsBy${fields.map(capitalized).join('')}`,
      sortKey: RUNS_BY_TIME.sortKey,
    },
    key: (values) => JSON.stringify(values),
  };
});

/** Every index of the runs: the two that came first (in their deployed order), then each combination's. */
export const RUN_INDEXES: readonly RunIndex[] = [
  RUNS_BY_CLUSTER,
  RUNS_BY_TIME,
  ...FILTER_INDEXES.map((filter) => filter.index).filter((index) => index !== RUNS_BY_CLUSTER),
];

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
export const checkpointKey = (runId: string, id: string): ItemKey => ({ pk: `checkpoint#${runId}`, sk: id });
export const checkpointPartKey = (runId: string, id: string, part: number): ItemKey => ({
  pk: `checkpoint#${runId}`,
  sk: `${id}#${String(part).padStart(5, '0')}`,
});
export const clusterRuns = (cluster: string): string => `runs#${cluster}`;

/** The table as CreateTable takes it (local servers, tests); the CDK stack declares the same shape. */
export function tableDefinition(table: string): CreateTableCommandInput {
  const stringKeys = ['pk', 'sk', ...RUN_INDEXES.map((index) => index.partitionKey), RUNS_BY_TIME.sortKey];
  const index = ({ indexName, partitionKey, sortKey }: RunIndex) => ({
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
    GlobalSecondaryIndexes: RUN_INDEXES.map(index),
  };
}
