import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { DeleteCommand, type DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { type BrakeEntry, brakeState, inWindow } from '../brake-window.ts';
import type { BrakeStore } from '../types.ts';
import { conditionally } from './conditional.ts';
import { brakeKey, TTL_ATTRIBUTE } from './layout.ts';

interface BrakeLog {
  writes: BrakeEntry[];
  version: number;
}

/** Concurrent writers retry a lost race; each round lets one through, so this bounds a storm of takers. */
const MAX_ROUNDS = 60;

/**
 * The brake as one item per cluster holding the writes that still count (at most `limit` of
 * them), changed only by a write conditioned on the version read: a strict sliding window across
 * every Lambda and source, with no count ever above the limit.
 */
export function dynamoBrake(db: DynamoDBDocumentClient, table: string): BrakeStore {
  async function read(cluster: string): Promise<BrakeLog | undefined> {
    const { Item } = await db.send(
      new GetCommand({ TableName: table, Key: brakeKey(cluster), ConsistentRead: true }),
    );
    return Item ? { writes: (Item.writes ?? []) as BrakeEntry[], version: Number(Item.version) } : undefined;
  }

  /** Replaces the log if nobody changed it since `seen`; false when the race was lost. */
  function write(cluster: string, seen: BrakeLog | undefined, writes: BrakeEntry[], expiresAt: number) {
    return conditionally(() =>
      db.send(
        new PutCommand({
          TableName: table,
          Item: {
            ...brakeKey(cluster),
            writes,
            version: (seen?.version ?? 0) + 1,
            [TTL_ATTRIBUTE]: expiresAt,
          },
          ConditionExpression: seen ? 'version = :version' : 'attribute_not_exists(pk)',
          ...(seen ? { ExpressionAttributeValues: { ':version': seen.version } } : {}),
        }),
      ),
    );
  }

  /** Reads, decides and writes back until the write lands (or the decision is to write nothing). */
  async function update<T>(
    cluster: string,
    decide: (
      log: BrakeLog | undefined,
    ) => { writes: BrakeEntry[]; result: T; expiresAt: number } | { result: T },
  ): Promise<T> {
    for (let round = 0; round < MAX_ROUNDS; round++) {
      const seen = await read(cluster);
      const decision = decide(seen);
      if (!('writes' in decision)) return decision.result;
      if (await write(cluster, seen, decision.writes, decision.expiresAt)) return decision.result;
      // Stryker disable next-line ArithmeticOperator,MethodExpression: the backoff changes how soon a race is retried, never what is counted
      await sleep(Math.random() * 20 * Math.min(round + 1, 5));
    }
    throw new Error(`the brake of ${cluster} is too contended to check; the write is not made`);
  }

  return {
    take(cluster, limit, windowSeconds, now) {
      return update(cluster, (log) => {
        // Stryker disable next-line ArrayDeclaration: an entry without a time is outside every window
        const counted = inWindow(log?.writes ?? [], now, windowSeconds);
        // Stryker disable next-line ObjectLiteral: a decision without writes returns its result, undefined either way
        if (counted.length >= limit) return { result: undefined };
        const entry = { at: now.getTime(), id: randomUUID() };
        return {
          writes: [...counted, entry],
          result: entry.id,
          expiresAt: Math.ceil(entry.at / 1000) + windowSeconds,
        };
      });
    },
    refund(cluster, ticket) {
      return update(cluster, (log) => {
        // Stryker disable next-line ObjectLiteral: a decision without writes returns its result, undefined either way
        if (!log?.writes.some((entry) => entry.id === ticket)) return { result: undefined };
        const writes = log.writes.filter((entry) => entry.id !== ticket);
        const latest = Math.max(0, ...writes.map((entry) => entry.at));
        return { writes, result: undefined, expiresAt: Math.ceil(latest / 1000) + 24 * 3600 };
      });
    },
    async state(cluster, limit, windowSeconds, now) {
      const log = await read(cluster);
      // Stryker disable next-line ArrayDeclaration: an entry without a time is outside every window
      return brakeState(cluster, inWindow(log?.writes ?? [], now, windowSeconds), limit, windowSeconds, now);
    },
    async reset(cluster) {
      await db.send(new DeleteCommand({ TableName: table, Key: brakeKey(cluster) }));
    },
  };
}
