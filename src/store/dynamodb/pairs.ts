import { type DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { epochSeconds, expiryAt } from '../expiry.ts';
import type { PairState, PairStore } from '../types.ts';
import { conditionally } from './conditional.ts';
import { pairKey, TTL_ATTRIBUTE } from './layout.ts';

/** Optional fields left undefined cannot be marshalled; a JSON copy drops them at any depth. */
const storable = (state: PairState) => JSON.parse(JSON.stringify(state)) as PairState;

/** One item per pair, replaced only under the version read (an expired one counts as absent). */
export function dynamoPairs(db: DynamoDBDocumentClient, table: string): PairStore {
  return {
    async get(key, now) {
      const { Item } = await db.send(
        new GetCommand({ TableName: table, Key: pairKey(key), ConsistentRead: true }),
      );
      if (!Item || Number(Item[TTL_ATTRIBUTE]) <= epochSeconds(now)) return undefined;
      return Item.state as PairState;
    },
    put: (key, state, ttlSeconds, now) =>
      conditionally(() =>
        db.send(
          new PutCommand({
            TableName: table,
            Item: {
              ...pairKey(key),
              state: storable(state),
              version: state.version,
              [TTL_ATTRIBUTE]: expiryAt(now, ttlSeconds),
            },
            ...(state.version === 1
              ? {
                  ConditionExpression: 'attribute_not_exists(pk) OR #ttl <= :now',
                  ExpressionAttributeNames: { '#ttl': TTL_ATTRIBUTE },
                  ExpressionAttributeValues: { ':now': epochSeconds(now) },
                }
              : {
                  ConditionExpression: '#version = :seen AND #ttl > :now',
                  ExpressionAttributeNames: { '#version': 'version', '#ttl': TTL_ATTRIBUTE },
                  ExpressionAttributeValues: { ':seen': state.version - 1, ':now': epochSeconds(now) },
                }),
          }),
        ),
      ),
  };
}
