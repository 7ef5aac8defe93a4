import { type DynamoDBDocumentClient, GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { runOrderKey } from '../run-order.ts';
import { collectPages } from '../run-pages.ts';
import type { RunExpectation, RunPageQuery, RunRecord, RunStore } from '../types.ts';
import { conditionally } from './conditional.ts';
import {
  FILTER_INDEXES,
  RUN_FEED,
  RUN_FILTER_FIELDS,
  RUNS_BY_TIME,
  type RunIndex,
  runKey,
} from './layout.ts';

/**
 * How many index items one page may read, so a page answers within a request's time and says
 * where to go on (a large page of large runs reads 1 MB at a time).
 */
export const PAGE_READ_BUDGET = 2_000;

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

/** The sort key's range: queued since `since`, older than `after`. */
function orderRange({ since, after }: RunPageQuery): { clause?: string; values: Record<string, string> } {
  // One condition per sort key: BETWEEN includes `after` itself, which the page then skips.
  if (since !== undefined && after !== undefined)
    return { clause: '#order BETWEEN :since AND :after', values: { ':since': since, ':after': after } };
  if (after !== undefined) return { clause: '#order < :after', values: { ':after': after } };
  if (since !== undefined) return { clause: '#order >= :since', values: { ':since': since } };
  return { values: {} };
}

/** The index whose key is exactly the fields asked for (the feed when none), and that key. */
function indexFor(query: RunPageQuery): { index: RunIndex; key: string } {
  const asked = RUN_FILTER_FIELDS.filter((field) => query[field] !== undefined);
  const filter = FILTER_INDEXES.find(
    (candidate) =>
      candidate.fields.length === asked.length && candidate.fields.every((field, i) => field === asked[i]),
  );
  if (!filter) return { index: RUNS_BY_TIME, key: RUN_FEED };
  return { index: filter.index, key: filter.key(asked.map((field) => query[field] as string)) };
}

/** The Query for a page, newest first: one key of one index; `since` and the cursor bound the sort key. */
function pageQuery(table: string, query: RunPageQuery) {
  const { index, key } = indexFor(query);
  const range = orderRange(query);
  return {
    TableName: table,
    IndexName: index.indexName,
    KeyConditionExpression: ['#partition = :partition', ...(range.clause ? [range.clause] : [])].join(
      ' AND ',
    ),
    ExpressionAttributeNames: {
      '#partition': index.partitionKey,
      ...(range.clause ? { '#order': index.sortKey } : {}),
    },
    ExpressionAttributeValues: { ':partition': key, ...range.values },
    ScanIndexForward: false,
    // One more than asked tells whether this is the last page; BETWEEN gives `after` back too.
    Limit: query.limit + 1 + (range.values[':after'] ? 1 : 0),
  };
}

/** Each combination's key this run has every field of: the indexes it is listed in. */
function filterKeys(record: RunRecord): Record<string, string> {
  const keys: Record<string, string> = {};
  for (const { fields, index, key } of FILTER_INDEXES) {
    const values = fields.map((field) => record[field]);
    if (values.every((value) => value !== undefined)) keys[index.partitionKey] = key(values as string[]);
  }
  return keys;
}

export function dynamoRuns(
  db: DynamoDBDocumentClient,
  table: string,
  readBudget = PAGE_READ_BUDGET,
): RunStore {
  const item = (record: RunRecord) => ({
    ...runKey(record.runId),
    ...filterKeys(record),
    [RUNS_BY_TIME.partitionKey]: RUN_FEED,
    [RUNS_BY_TIME.sortKey]: runOrderKey(record),
    record: storable(record),
  });
  const page: RunStore['page'] = async (query) => {
    const { since, after, limit } = query;
    if (limit <= 0 || (since !== undefined && after !== undefined && after <= since)) return { runs: [] };
    const request = pageQuery(table, query);
    const order = (found: Record<string, unknown>) => found[RUNS_BY_TIME.sortKey] as string;
    const runs: RunRecord[] = [];
    let start: Record<string, unknown> | undefined;
    let read = 0;
    do {
      const answer = await db.send(
        new QueryCommand({
          ...request,
          Limit: Math.min(request.Limit, readBudget - read),
          ExclusiveStartKey: start,
        }),
      );
      const items = (answer.Items ?? []).filter((found) => order(found) !== after);
      for (const [i, found] of items.entries()) {
        runs.push(found.record as RunRecord);
        if (runs.length < limit) continue;
        const more = i < items.length - 1 || answer.LastEvaluatedKey !== undefined;
        return more ? { runs, next: order(found) } : { runs };
      }
      start = answer.LastEvaluatedKey;
      read += answer.ScannedCount ?? 0;
    } while (start && read < readBudget);
    return start ? { runs, next: order(start) } : { runs };
  };
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
    list: ({ cluster, limit } = {}) =>
      collectPages((after, want) => page({ cluster, after, limit: want }), limit),
    page,
  };
}
