import { memoryBrake } from './memory/brake.ts';
import { memoryCheckpoints } from './memory/checkpoints.ts';
import { memoryDedupe } from './memory/dedupe.ts';
import { memoryLeases } from './memory/leases.ts';
import { memoryPairs } from './memory/pairs.ts';
import { memoryRuns } from './memory/runs.ts';
import { memoryThreadIndex } from './memory/threads.ts';
import type { StateStore } from './types.ts';

/** The state store for one process (the local server, the CLI, tests): nothing survives a restart. */
export function memoryStore(): StateStore {
  return {
    dedupe: memoryDedupe(),
    pairs: memoryPairs(),
    leases: memoryLeases(),
    brake: memoryBrake(),
    runs: memoryRuns(),
    checkpoints: memoryCheckpoints(),
    threads: memoryThreadIndex(),
  };
}
