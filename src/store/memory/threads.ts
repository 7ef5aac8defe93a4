import type { ThreadIndex, ThreadRef } from '../types.ts';

/** A ThreadIndex for one process: the local server, the CLI and tests. */
export function memoryThreadIndex(threads = new Map<string, ThreadRef>()): ThreadIndex {
  return {
    get: async (threadKey) => threads.get(threadKey),
    set: async (threadKey, ref) => {
      threads.set(threadKey, ref);
    },
  };
}
