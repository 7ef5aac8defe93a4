import { memoryStore } from '../src/store/memory.ts';
import type { RunRecord, StateStore } from '../src/store/types.ts';
import { leftBehindLine, openLocalState } from './local-state.ts';

export interface StateOptions {
  /** commander's `--no-state`: keep nothing between runs. */
  state: boolean;
}

/** The local state a command asked for: persisted by default, in memory with --no-state. */
export async function openState(
  options: StateOptions,
): Promise<{ store: StateStore; close(): Promise<void> }> {
  if (!options.state) return { store: memoryStore(), close: async () => {} };
  return sayLeftBehind(await openLocalState());
}

/** The state, after telling the person which runs a stopped process left behind (and how they were closed). */
export function sayLeftBehind<T extends { leftBehind: RunRecord[] }>(state: T): T {
  for (const record of state.leftBehind) process.stderr.write(`${leftBehindLine(record)}\n`);
  return state;
}
