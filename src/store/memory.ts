import type { BrakeEntry } from './brake-window.ts';
import { memoryBrake } from './memory/brake.ts';
import { memoryCheckpoints, type SavedCheckpoint } from './memory/checkpoints.ts';
import { memoryDedupe } from './memory/dedupe.ts';
import { type Lease, memoryLeases } from './memory/leases.ts';
import { memoryPairs, type PairEntry } from './memory/pairs.ts';
import { memoryRuns } from './memory/runs.ts';
import { memoryThreadIndex } from './memory/threads.ts';
import type { RunRecord, StateStore, ThreadRef } from './types.ts';

export { checkpointKey } from './memory/checkpoints.ts';

/**
 * What the memory store keeps, as plain maps of JSON-able values: a caller that hands them in can
 * save them and hand them in again in the next process (the CLI's local state, cli/state-file.ts).
 */
export interface MemoryState {
  /** Dedupe key → the epoch second its claim ends. */
  dedupe: Map<string, number>;
  pairs: Map<string, PairEntry>;
  leases: Map<string, Lease>;
  /** Cluster → the writes that count. */
  brake: Map<string, BrakeEntry[]>;
  runs: Map<string, RunRecord>;
  /** Keyed by checkpointKey(runId, id). */
  checkpoints: Map<string, SavedCheckpoint>;
  threads: Map<string, ThreadRef>;
}

export function emptyMemoryState(): MemoryState {
  return {
    dedupe: new Map(),
    pairs: new Map(),
    leases: new Map(),
    brake: new Map(),
    runs: new Map(),
    checkpoints: new Map(),
    threads: new Map(),
  };
}

/** The state store over `state` (empty by default: the local server, the CLI, tests): nothing outlives the maps. */
export function memoryStore(state: MemoryState = emptyMemoryState()): StateStore {
  return {
    dedupe: memoryDedupe(state.dedupe),
    pairs: memoryPairs(state.pairs),
    leases: memoryLeases(state.leases),
    brake: memoryBrake(state.brake),
    runs: memoryRuns(state.runs),
    checkpoints: memoryCheckpoints(state.checkpoints),
    threads: memoryThreadIndex(state.threads),
  };
}
