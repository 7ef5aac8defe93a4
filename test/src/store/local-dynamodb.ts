import type { AddressInfo } from 'node:net';
import { CreateTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import dynalite from 'dynalite';
import { tableDefinition } from '../../../src/store/index.ts';

/** dynalite (a DynamoDB-compatible server from npm, in memory) on a free loopback port. */
export interface LocalDynamoDB {
  client: DynamoDBClient;
  /** Where it listens, for clients configured by AWS_ENDPOINT_URL_DYNAMODB. */
  endpoint: string;
  /** A new, empty table with the store's layout. */
  createTable(): Promise<string>;
  stop(): Promise<void>;
}

export async function startLocalDynamoDB(): Promise<LocalDynamoDB> {
  const server = dynalite({ createTableMs: 0 });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  const client = new DynamoDBClient({
    endpoint: `http://127.0.0.1:${port}`,
    region: 'eu-west-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  let tables = 0;
  return {
    client,
    endpoint: `http://127.0.0.1:${port}`,
    async createTable() {
      tables += 1;
      const table = `responder-state-${tables}`;
      await client.send(new CreateTableCommand(tableDefinition(table)));
      return table;
    },
    async stop() {
      client.destroy();
      await new Promise<void>((resolve, reject) =>
        server.close((error) => (error ? reject(error) : resolve())),
      );
    },
  };
}
