import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { dynamoBrake } from './dynamodb/brake.ts';
import { dynamoCheckpoints } from './dynamodb/checkpoints.ts';
import { dynamoDedupe } from './dynamodb/dedupe.ts';
import { dynamoLeases } from './dynamodb/leases.ts';
import { dynamoPairs } from './dynamodb/pairs.ts';
import { dynamoRuns } from './dynamodb/runs.ts';
import { dynamoThreads } from './dynamodb/threads.ts';
import type { StateStore } from './types.ts';

export interface DynamoStoreOptions {
  /** A document client, or a plain client (wrapped in one). */
  client: DynamoDBDocumentClient | DynamoDBClient;
  /** The single table; its layout is in `dynamodb/layout.ts`. */
  table: string;
}

/** The state store in one DynamoDB table; every race is decided by a conditional write. */
export function dynamoStore({ client, table }: DynamoStoreOptions): StateStore {
  const db = client instanceof DynamoDBClient ? DynamoDBDocumentClient.from(client) : client;
  return {
    dedupe: dynamoDedupe(db, table),
    pairs: dynamoPairs(db, table),
    leases: dynamoLeases(db, table),
    brake: dynamoBrake(db, table),
    runs: dynamoRuns(db, table),
    checkpoints: dynamoCheckpoints(db, table),
    threads: dynamoThreads(db, table),
  };
}
