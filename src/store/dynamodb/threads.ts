import { type DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { ThreadIndex, ThreadRef } from '../types.ts';
import { threadKey } from './layout.ts';

/** Chat thread roots, so a later invocation (another Lambda) edits the thread an earlier one started. */
export function dynamoThreads(db: DynamoDBDocumentClient, table: string): ThreadIndex {
  return {
    async get(key) {
      const { Item } = await db.send(
        new GetCommand({ TableName: table, Key: threadKey(key), ConsistentRead: true }),
      );
      if (!Item) return undefined;
      const { channel, ts, problem, state } = Item as ThreadRef;
      return {
        channel,
        ts,
        ...(problem === undefined ? {} : { problem }),
        ...(state === undefined ? {} : { state }),
      };
    },
    async set(key, ref) {
      await db.send(new PutCommand({ TableName: table, Item: { ...threadKey(key), ...ref } }));
    },
  };
}
