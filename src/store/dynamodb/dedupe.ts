import { DeleteCommand, type DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import { epochSeconds, expiryAt } from '../expiry.ts';
import type { DedupeStore } from '../types.ts';
import { conditionally } from './conditional.ts';
import { dedupeKey, TTL_ATTRIBUTE } from './layout.ts';

export function dynamoDedupe(db: DynamoDBDocumentClient, table: string): DedupeStore {
  return {
    claim: (key, ttlSeconds, now) =>
      conditionally(() =>
        db.send(
          new PutCommand({
            TableName: table,
            Item: { ...dedupeKey(key), [TTL_ATTRIBUTE]: expiryAt(now, ttlSeconds) },
            // An expired claim may not be deleted yet: it counts as absent.
            ConditionExpression: 'attribute_not_exists(pk) OR #ttl <= :now',
            ExpressionAttributeNames: { '#ttl': TTL_ATTRIBUTE },
            ExpressionAttributeValues: { ':now': epochSeconds(now) },
          }),
        ),
      ),
    release: async (key) => {
      await db.send(new DeleteCommand({ TableName: table, Key: dedupeKey(key) }));
    },
  };
}
