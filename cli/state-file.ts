import {
  appendFileSync,
  closeSync,
  existsSync,
  openSync,
  readFileSync,
  renameSync,
  writeFileSync,
} from 'node:fs';
import { checkpointKey, emptyMemoryState, type MemoryState, memoryStore } from '../src/store/memory.ts';
import type { StateStore } from '../src/store/types.ts';

type MapName = keyof MemoryState;

/** One line of the file: an entry of one of the memory store's maps as it became (null: removed). */
type Line = [MapName, string, unknown];

const MAPS = new Set<string>(Object.keys(emptyMemoryState()));

/** The maps as the file left them: each line replaces its entry, so the last line of a key wins. */
function readLines(path: string): { state: MemoryState; lines: number; torn: boolean } {
  const state = emptyMemoryState();
  const text = readFileSync(path, 'utf8');
  // Each line ends with a newline: what follows the last one is empty, or the torn end of an
  // append a killed process did not finish (the call it saved never returned).
  const lines = text.split('\n').slice(0, -1);
  lines.forEach((text, index) => {
    let line: Line;
    try {
      line = JSON.parse(text) as Line;
    } catch {
      throw new Error(
        `the local state file ${path} is damaged at line ${index + 1}; move it away to start afresh`,
      );
    }
    const [name, key, value] = line;
    if (!MAPS.has(name))
      throw new Error(`the local state file ${path} has an unknown entry at line ${index + 1}`);
    const map = state[name] as Map<string, unknown>;
    if (value === null) map.delete(key);
    else map.set(key, value);
  });
  return { state, lines: lines.length, torn: !text.endsWith('\n') && text !== '' };
}

function entries(state: MemoryState): Line[] {
  return Object.entries(state).flatMap(([name, map]) =>
    [...(map as Map<string, unknown>)].map(([key, value]): Line => [name as MapName, key, value]),
  );
}

const asText = (line: Line) => `${JSON.stringify(line)}\n`;

/** Writes the maps whole, in place of the file at once (a reader never sees half of it). */
export function writeStateFile(path: string, state: MemoryState): void {
  writeFileSync(`${path}.tmp`, entries(state).map(asText).join(''));
  renameSync(`${path}.tmp`, path);
}

/** Rewritten whole when this many lines are no longer the last of their entry: a run writes its record a few times. */
const STALE_LINES = 1000;

/**
 * The memory store over maps kept in `path`, one line appended per change before the call that
 * made it returns: what a process did is in the file before it goes on to a cluster write, and
 * the next process reads it back. The file is JSON lines, read in milliseconds where the
 * DynamoDB adapter on dynalite took a tenth of a second to open and answer the first run's
 * calls. Only one process has it open (cli/state-lock.ts).
 */
export function fileStore(path: string): { store: StateStore; close(): void } {
  const read = existsSync(path) ? readLines(path) : undefined;
  const state = read?.state ?? emptyMemoryState();
  const live = entries(state).length;
  // Rewritten whole before appending: after a torn line, the next append would join it.
  if (!read || read.torn || read.lines - live > STALE_LINES) writeStateFile(path, state);
  const fd = openSync(path, 'a');
  const memory = memoryStore(state);
  /** `call`, then its entry as the call left it appended to the file. */
  function saving<A extends unknown[], R>(
    call: (...args: A) => Promise<R>,
    entry: (...args: A) => [MapName, string],
  ): (...args: A) => Promise<R> {
    return async (...args) => {
      const result = await call(...args);
      const [name, key] = entry(...args);
      appendFileSync(fd, asText([name, key, (state[name] as Map<string, unknown>).get(key) ?? null]));
      return result;
    };
  }
  const { dedupe, pairs, leases, brake, runs, checkpoints, threads } = memory;
  const store: StateStore = {
    dedupe: {
      claim: saving(dedupe.claim, (key) => ['dedupe', key]),
      release: saving(dedupe.release, (key) => ['dedupe', key]),
    },
    pairs: { get: pairs.get, put: saving(pairs.put, (key) => ['pairs', key]) },
    leases: {
      acquire: saving(leases.acquire, (key) => ['leases', key]),
      release: saving(leases.release, (key) => ['leases', key]),
      handOver: saving(leases.handOver, (key) => ['leases', key]),
      holder: leases.holder,
    },
    brake: {
      take: saving(brake.take, (cluster) => ['brake', cluster]),
      refund: saving(brake.refund, (cluster) => ['brake', cluster]),
      reset: saving(brake.reset, (cluster) => ['brake', cluster]),
      state: brake.state,
    },
    runs: {
      put: saving(runs.put, (record) => ['runs', record.runId]),
      create: saving(runs.create, (record) => ['runs', record.runId]),
      advance: saving(runs.advance, (record) => ['runs', record.runId]),
      get: runs.get,
      list: runs.list,
      page: runs.page,
    },
    checkpoints: {
      save: saving(checkpoints.save, (runId, id) => ['checkpoints', checkpointKey(runId, id)]),
      load: checkpoints.load,
    },
    threads: { get: threads.get, set: saving(threads.set, (key) => ['threads', key]) },
  };
  return { store, close: () => closeSync(fd) };
}
