import { existsSync, mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { RunRecord, StateStore } from '../src/store/types.ts';
import { closeLeftRuns } from '../src/worker/left-behind.ts';
import { fileStore, writeStateFile } from './state-file.ts';
import { lockState } from './state-lock.ts';

/** The file the local state is kept in, under the state directory. */
const STATE_FILE = 'state.jsonl';

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
 * memory store's maps, kept in `state.jsonl` under the state directory (cli/state-file.ts). A
 * directory an earlier version kept in dynalite (`dynamodb/`) is read once into the file, and left
 * where it is.
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
  const file = join(dir, STATE_FILE);
  const legacy = join(dir, 'dynamodb');
  if (!existsSync(file) && existsSync(legacy)) {
    // Loaded only here: dynalite and the DynamoDB client take a tenth of a second to load.
    const { readLegacyState } = await import('./legacy-state.ts');
    try {
      writeStateFile(file, await readLegacyState(legacy));
    } catch (error) {
      throw new Error(`cannot read the local state in ${legacy}: ${(error as Error).message}`, {
        cause: error,
      });
    }
  }
  const { store, close: closeFile } = fileStore(file);
  const close = async () => {
    closeFile();
    unlock();
  };
  // The lock says no other process has the state open: any run still open was left by one that
  // stopped (kill -9, a crash, a closed terminal).
  const leftBehind = await closeLeftRuns({ store, now: () => new Date() }, () => true);
  return { store, dir, leftBehind, close };
}
