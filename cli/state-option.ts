import { memoryStore } from '../src/store/index.ts';
import type { StateStore } from '../src/store/types.ts';
import { openLocalState } from './local-state.ts';

export interface StateOptions {
  /** commander's `--no-state`: keep nothing between runs. */
  state: boolean;
}

/** The local state a command asked for: persisted by default, in memory with --no-state. */
export async function openState(
  options: StateOptions,
): Promise<{ store: StateStore; close(): Promise<void> }> {
  if (!options.state) return { store: memoryStore(), close: async () => {} };
  return openLocalState();
}
