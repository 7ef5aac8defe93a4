import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';

/** Who holds the local state: written into its lock file. */
interface Holder {
  pid: number;
  host: string;
  command: string;
  since: string;
}

/** A second local command while the state is held: a clear message, exit 2, nothing touched. */
export class StateBusyError extends Error {
  constructor(dir: string, holder: Holder | undefined) {
    const who = holder
      ? `\`responder ${holder.command}\` (pid ${holder.pid} on ${holder.host}, since ${holder.since})`
      : 'another responder command';
    super(
      `the local state in ${dir} is in use by ${who}: wait for it to finish, stop it, or pass --no-state (or --server <url> for history)`,
    );
    this.name = 'StateBusyError';
  }
}

/** This process, as the lock and the run records name it. */
export const LOCAL_WORKER = `pid ${process.pid} on ${hostname()}`;

function readHolder(path: string): Holder | undefined {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as Holder;
  } catch {
    return undefined;
  }
}

/** Provably dead: it ran on this host and no process has its pid (signal 0 checks without sending). */
function isDead(holder: Holder): boolean {
  if (holder.host !== hostname()) return false;
  try {
    process.kill(holder.pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/**
 * Takes the local state for this process: one command at a time, since each reads the state file
 * once and then only appends to it (two would each miss the other's writes, the brake's too). A
 * lock left by a process that died (kill -9, a crash) is taken over when its pid is provably gone
 * on this host: waiting for a timeout would only refuse the next command for no reason. Returns
 * the release.
 */
export function lockState(dir: string): () => void {
  const path = join(dir, 'responder.lock');
  const holder: Holder = {
    pid: process.pid,
    host: hostname(),
    command: process.argv.slice(2).join(' '),
    since: new Date().toISOString(),
  };
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, 'wx');
      writeSync(fd, JSON.stringify(holder));
      closeSync(fd);
      let held = true;
      // Once: a second release must not remove a lock another process has taken since.
      return () => {
        if (held) rmSync(path, { force: true });
        held = false;
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const current = readHolder(path);
      if (!current || !isDead(current)) throw new StateBusyError(dir, current);
      rmSync(path, { force: true });
    }
  }
  throw new StateBusyError(dir, readHolder(path));
}
