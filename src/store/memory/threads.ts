import type { ThreadIndex, ThreadRef } from '../types.ts';

/** A ThreadIndex for one process: the local server, the CLI and tests. */
export function memoryThreadIndex(): ThreadIndex {
  const threads = new Map<string, ThreadRef>();
  return {
    get: async (threadKey) => threads.get(threadKey),
    set: async (threadKey, ref) => {
      threads.set(threadKey, ref);
    },
  };
}
