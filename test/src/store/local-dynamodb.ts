import type { AddressInfo } from 'node:net';
import { CreateTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import dynalite from 'dynalite';
import { tableDefinition } from '../../../src/store/index.ts';

/** A client of a local DynamoDB-compatible server, making tables with the store's layout. */
export interface LocalTables {
  client: DynamoDBClient;
  /** Where it listens, for clients configured by AWS_ENDPOINT_URL_DYNAMODB. */
  endpoint: string;
  /** A new, empty table with the store's layout. */
  createTable(): Promise<string>;
}

/** dynalite (a DynamoDB-compatible server from npm, in memory) on a free loopback port. */
export interface LocalDynamoDB extends LocalTables {
  stop(): Promise<void>;
}

/** Tables on the DynamoDB-compatible server at `endpoint` (local credentials, one region). */
export function localTables(endpoint: string): LocalTables {
  const client = new DynamoDBClient({
    endpoint,
    region: 'eu-west-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  let tables = 0;
  return {
    client,
    endpoint,
    async createTable() {
      tables += 1;
      const table = `responder-state-${tables}`;
      await client.send(new CreateTableCommand(tableDefinition(table)));
      return table;
    },
  };
}

export async function startLocalDynamoDB(): Promise<LocalDynamoDB> {
  const server = dynalite({ createTableMs: 0 });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  const tables = localTables(`http://127.0.0.1:${port}`);
  return {
    ...tables,
    async stop() {
      tables.client.destroy();
      await new Promise<void>((resolve, reject) =>
        server.close((error) => (error ? reject(error) : resolve())),
      );
    },
  };
}
