import { mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { homedir } from 'node:os';
import { join } from 'node:path';
import {
  CreateTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
  waitUntilTableExists,
} from '@aws-sdk/client-dynamodb';
import dynalite from 'dynalite';
import { dynamoStore, type StateStore, tableDefinition } from '../src/store/index.ts';
import type { RunRecord } from '../src/store/types.ts';
import { closeLeftRuns } from '../src/worker/left-behind.ts';
import { lockState } from './state-lock.ts';

/** The table the local state keeps, in the same layout as the deployed one. */
const TABLE = 'cilium-responder-local';

/**
 * Where local runs keep their state: `$RESPONDER_STATE_DIR`, else the XDG state directory
 * (`~/.local/state/cilium-responder`).
 */
export function stateDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.RESPONDER_STATE_DIR) return env.RESPONDER_STATE_DIR;
  return join(env.XDG_STATE_HOME ?? join(homedir(), '.local', 'state'), 'cilium-responder');
}

export interface LocalState {
  store: StateStore;
  /** Where it lives, for messages. */
  dir: string;
  /** Runs a stopped process left behind, closed as it was opened (interrupted, or never ran). */
  leftBehind: RunRecord[];
  close(): Promise<void>;
}

/** What a person reads about a run a stopped process left behind. */
export function leftBehindLine(record: RunRecord): string {
  return `run ${record.runId} (${record.runbook} on ${record.cluster}) was ${record.status}: ${record.error}`;
}

/**
 * The state that outlives one CLI invocation (audit records, the brake, leases, dedupe): the
 * DynamoDB adapter, the same code as in AWS, against dynalite, an embedded DynamoDB-compatible
 * server on a loopback port, persisting to LevelDB under the state directory.
 */
export async function openLocalState(dir = stateDir()): Promise<LocalState> {
  mkdirSync(dir, { recursive: true });
  const unlock = lockState(dir);
  try {
    return await openLocked(dir, unlock);
  } catch (error) {
    unlock();
    throw error;
  }
}

async function openLocked(dir: string, unlock: () => void): Promise<LocalState> {
  const server = dynalite({ path: join(dir, 'dynamodb'), createTableMs: 0 });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
  } catch (error) {
    throw new Error(`cannot open the local state in ${dir}: ${(error as Error).message}`, { cause: error });
  }
  const { port } = server.address() as AddressInfo;
  const client = new DynamoDBClient({
    endpoint: `http://127.0.0.1:${port}`,
    region: 'local',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  const close = async () => {
    client.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    unlock();
  };
  try {
    await ensureTable(client);
  } catch (error) {
    await close();
    // LevelDB holds a lock while a process has it open.
    const busy = /lock/i.test(String((error as Error).message));
    throw new Error(
      busy
        ? `the local state in ${dir} is in use by another responder command; wait for it to finish`
        : `cannot open the local state in ${dir}: ${(error as Error).message}`,
      { cause: error },
    );
  }
  const store = dynamoStore({ client, table: TABLE });
  // The lock says no other process has the state open: any run still open was left by one that
  // stopped (kill -9, a crash, a closed terminal).
  const leftBehind = await closeLeftRuns({ store, now: () => new Date() }, () => true);
  return { store, dir, leftBehind, close };
}

/**
 * The table, created on first use and waited for: dynalite answers CreateTable with CREATING and
 * turns it ACTIVE a moment later; a request in between is told the table does not exist.
 */
async function ensureTable(client: DynamoDBClient): Promise<void> {
  try {
    const { Table } = await client.send(new DescribeTableCommand({ TableName: TABLE }));
    if (Table?.TableStatus === 'ACTIVE') return;
  } catch (error) {
    if ((error as Error).name !== 'ResourceNotFoundException') throw error;
    await client.send(new CreateTableCommand(tableDefinition(TABLE)));
  }
  await waitUntilTableExists({ client, maxWaitTime: 10, minDelay: 1, maxDelay: 1 }, { TableName: TABLE });
}
