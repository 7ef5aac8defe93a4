import { type DynamoDBDocumentClient, GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { expiryAt, hasExpired } from '../expiry.ts';
import type { CheckpointStore } from '../types.ts';
import { checkpointKey, checkpointPartKey, TTL_ATTRIBUTE } from './layout.ts';

/** Bytes of JSON per part: an item holds at most 400 KB, its keys and attributes included. */
export const CHECKPOINT_PART_BYTES = 350_000;

/**
 * Checkpoints in the table: the JSON in parts (a fan-out over 100,000 agents outgrows one item),
 * then the item that counts them. A load reads that item, then every part, consistently; a
 * checkpoint whose parts are not all there is none.
 */
export function dynamoCheckpoints(db: DynamoDBDocumentClient, table: string): CheckpointStore {
  return {
    async save(runId, id, checkpoint, ttlSeconds, now) {
      const bytes = Buffer.from(JSON.stringify(checkpoint));
      const ttl = expiryAt(now, ttlSeconds);
      const parts = Math.max(1, Math.ceil(bytes.length / CHECKPOINT_PART_BYTES));
      for (let part = 0; part < parts; part++) {
        const data = bytes.subarray(part * CHECKPOINT_PART_BYTES, (part + 1) * CHECKPOINT_PART_BYTES);
        await db.send(
          new PutCommand({
            TableName: table,
            Item: { ...checkpointPartKey(runId, id, part), data, [TTL_ATTRIBUTE]: ttl },
          }),
        );
      }
      await db.send(
        new PutCommand({
          TableName: table,
          Item: { ...checkpointKey(runId, id), parts, [TTL_ATTRIBUTE]: ttl },
        }),
      );
    },
    async load(runId, id, now) {
      const { Item } = await db.send(
        new GetCommand({ TableName: table, Key: checkpointKey(runId, id), ConsistentRead: true }),
      );
      if (!Item || hasExpired(Item[TTL_ATTRIBUTE] as number, now)) return undefined;
      const { pk, sk: first } = checkpointPartKey(runId, id, 0);
      const { sk: last } = checkpointPartKey(runId, id, (Item.parts as number) - 1);
      const chunks: Uint8Array[] = [];
      let start: Record<string, unknown> | undefined;
      do {
        const page = await db.send(
          new QueryCommand({
            TableName: table,
            KeyConditionExpression: 'pk = :pk AND sk BETWEEN :first AND :last',
            ExpressionAttributeValues: { ':pk': pk, ':first': first, ':last': last },
            ConsistentRead: true,
            ...(start ? { ExclusiveStartKey: start } : {}),
          }),
        );
        for (const part of page.Items ?? []) chunks.push(part.data as Uint8Array);
        start = page.LastEvaluatedKey;
      } while (start);
      if (chunks.length !== Item.parts) return undefined;
      return JSON.parse(Buffer.concat(chunks).toString('utf8'));
    },
  };
}
