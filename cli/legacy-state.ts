import type { AddressInfo } from 'node:net';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, paginateScan } from '@aws-sdk/lib-dynamodb';
import dynalite from 'dynalite';
import type { BrakeEntry } from '../src/store/brake-window.ts';
import { emptyMemoryState, type MemoryState } from '../src/store/memory.ts';
import type { PairState, RunRecord, ThreadRef } from '../src/store/types.ts';

/** The table earlier versions kept the local state in (dynalite, in `<state dir>/dynamodb`). */
const TABLE = 'cilium-responder-local';

/**
 * What an earlier version's local state held, read from its dynalite table (src/store/dynamodb/layout.ts
 * says where each item lives): the run history, the brake's counted writes, leases, dedupe keys,
 * pairs and chat threads. Checkpoints are left: a run that was continuing is closed as left behind.
 */
export async function readLegacyState(path: string): Promise<MemoryState> {
  const server = dynalite({ path });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const client = new DynamoDBClient({
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    region: 'local',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  const state = emptyMemoryState();
  try {
    const documents = DynamoDBDocumentClient.from(client);
    for await (const page of paginateScan({ client: documents }, { TableName: TABLE }))
      for (const item of page.Items ?? []) keep(state, item);
  } catch (error) {
    // A directory with no table yet (a first command stopped early) holds nothing to keep.
    if ((error as Error).name !== 'ResourceNotFoundException') throw error;
  } finally {
    client.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
  return state;
}

/** One item of the old table in the map the memory store keeps it in. */
function keep(state: MemoryState, item: Record<string, unknown>): void {
  const pk = String(item.pk);
  const split = pk.indexOf('#');
  const [kind, key] = [pk.slice(0, split), pk.slice(split + 1)];
  const ttl = Number(item.ttl);
  switch (kind) {
    case 'run':
      state.runs.set(key, item.record as RunRecord);
      return;
    case 'brake':
      state.brake.set(key, (item.writes ?? []) as BrakeEntry[]);
      return;
    case 'lease':
      state.leases.set(key, { owner: String(item.owner), expiresAt: ttl });
      return;
    case 'dedupe':
      state.dedupe.set(key, ttl);
      return;
    case 'pair':
      state.pairs.set(key, { state: item.state as PairState, expiresAt: ttl });
      return;
    case 'thread': {
      const { channel, ts, problem, state: said } = item as unknown as ThreadRef;
      state.threads.set(key, {
        channel,
        ts,
        ...(problem === undefined ? {} : { problem }),
        ...(said === undefined ? {} : { state: said }),
      });
      return;
    }
  }
}
