import { DeleteCommand, type DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { epochSeconds, expiryAt, hasExpired, isoAt } from '../expiry.ts';
import type { LeaseStore } from '../types.ts';
import { conditionally } from './conditional.ts';
import { leaseKey, TTL_ATTRIBUTE } from './layout.ts';

export function dynamoLeases(db: DynamoDBDocumentClient, table: string): LeaseStore {
  return {
    acquire: (key, owner, ttlSeconds, now) =>
      conditionally(() =>
        db.send(
          new PutCommand({
            TableName: table,
            Item: { ...leaseKey(key), owner, [TTL_ATTRIBUTE]: expiryAt(now, ttlSeconds) },
            // Free, already ours (renewal), or expired but not yet deleted by TTL.
            ConditionExpression: 'attribute_not_exists(pk) OR #owner = :owner OR #ttl <= :now',
            ExpressionAttributeNames: { '#owner': 'owner', '#ttl': TTL_ATTRIBUTE },
            ExpressionAttributeValues: { ':owner': owner, ':now': epochSeconds(now) },
          }),
        ),
      ),
    async release(key, owner) {
      // Not ours any more (expired and taken by another): theirs to release, so nothing to do.
      await conditionally(() =>
        db.send(
          new DeleteCommand({
            TableName: table,
            Key: leaseKey(key),
            ConditionExpression: '#owner = :owner',
            ExpressionAttributeNames: { '#owner': 'owner' },
            ExpressionAttributeValues: { ':owner': owner },
          }),
        ),
      );
    },
    handOver: (key, from, to, ttlSeconds, now) =>
      conditionally(() =>
        db.send(
          new PutCommand({
            TableName: table,
            Item: { ...leaseKey(key), owner: to, [TTL_ATTRIBUTE]: expiryAt(now, ttlSeconds) },
            ConditionExpression: '#owner = :from AND #ttl > :now',
            ExpressionAttributeNames: { '#owner': 'owner', '#ttl': TTL_ATTRIBUTE },
            ExpressionAttributeValues: { ':from': from, ':now': epochSeconds(now) },
          }),
        ),
      ),
    async holder(key, now) {
      const { Item } = await db.send(
        new GetCommand({ TableName: table, Key: leaseKey(key), ConsistentRead: true }),
      );
      const expiresAt = Item?.[TTL_ATTRIBUTE] as number | undefined;
      // TTL deletes lazily: an item past its ttl is no lease.
      if (!Item || expiresAt === undefined || hasExpired(expiresAt, now)) return undefined;
      return { owner: Item.owner as string, expiresAt: isoAt(expiresAt) };
    },
  };
}
