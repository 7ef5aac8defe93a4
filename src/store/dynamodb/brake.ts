import {
  DeleteCommand,
  type DynamoDBDocumentClient,
  GetCommand,
  paginateQuery,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { brakeState, brakeWindow } from '../brake-window.ts';
import type { BrakeStore } from '../types.ts';
import { conditionally } from './conditional.ts';
import { brakeKey, brakePartition, TTL_ATTRIBUTE } from './layout.ts';

export function dynamoBrake(db: DynamoDBDocumentClient, table: string): BrakeStore {
  return {
    async take(cluster, limit, windowSeconds, now) {
      // The condition lets the first write of a window create its item, so a zero limit is decided here.
      if (limit <= 0) return false;
      const window = brakeWindow(now, windowSeconds);
      return conditionally(() =>
        db.send(
          new UpdateCommand({
            TableName: table,
            Key: brakeKey(cluster, window.start),
            UpdateExpression: 'ADD #used :one SET #ttl = :windowEnd',
            ConditionExpression: 'attribute_not_exists(#used) OR #used < :limit',
            ExpressionAttributeNames: { '#used': 'used', '#ttl': TTL_ATTRIBUTE },
            ExpressionAttributeValues: { ':one': 1, ':limit': limit, ':windowEnd': window.end },
          }),
        ),
      );
    },
    async state(cluster, limit, windowSeconds, now) {
      const window = brakeWindow(now, windowSeconds);
      const { Item } = await db.send(
        new GetCommand({ TableName: table, Key: brakeKey(cluster, window.start), ConsistentRead: true }),
      );
      return brakeState(cluster, Number(Item?.used ?? 0), limit, window);
    },
    /**
     * Reset has no clock, so it deletes every window item of the cluster (old ones are few: TTL
     * removes them). A take racing it either lands before the delete and is forgotten with it, or
     * after, and recreates the item from zero: either way as if the two ran one after the other.
     */
    async reset(cluster) {
      const windows = paginateQuery(
        { client: db },
        {
          TableName: table,
          KeyConditionExpression: 'pk = :pk',
          ExpressionAttributeValues: { ':pk': brakePartition(cluster) },
          ProjectionExpression: 'pk, sk',
          ConsistentRead: true,
        },
      );
      for await (const page of windows) {
        await Promise.all(
          (page.Items ?? []).map(({ pk, sk }) =>
            db.send(new DeleteCommand({ TableName: table, Key: { pk, sk } })),
          ),
        );
      }
    },
  };
}
