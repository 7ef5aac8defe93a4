import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const GNU_TIME = '/usr/bin/time';

export interface Finished {
  stdout: string;
  /** performance.now() when the process was started, on this process's clock. */
  startedAt: number;
  /** Wall time from start to exit. */
  seconds: number;
  /** Peak RSS of the process (GNU time's %M), when asked for. */
  maxRssMiB?: number;
}

export interface RunOptions {
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** Measure the process's peak RSS from outside, with GNU time. */
  peakRss?: boolean;
  /** Exit codes that are answers, not failures (the CLI exits 1 when problems remain). Default 0. */
  exitCodes?: readonly number[];
}

/**
 * Runs a process to its end without blocking this one (the servers it talks to may live here),
 * and says how long it took. A failure throws with the process's own words.
 */
export async function runMeasured(file: string, args: readonly string[], options: RunOptions = {}) {
  const scratch = options.peakRss ? mkdtempSync(join(tmpdir(), 'bench-rss-')) : undefined;
  if (scratch && !existsSync(GNU_TIME)) throw new Error(`${GNU_TIME} is needed to measure peak RSS`);
  const rssFile = scratch ? join(scratch, 'rss') : '';
  const [command, argv] = scratch
    ? [GNU_TIME, ['-f', '%M', '-o', rssFile, file, ...args]]
    : [file, [...args]];
  const startedAt = performance.now();
  try {
    const { stdout } = await promisify(execFile)(command, argv, {
      encoding: 'utf8',
      maxBuffer: 64 << 20,
      ...(options.env ? { env: options.env } : {}),
      ...(options.cwd ? { cwd: options.cwd } : {}),
    }).catch((error: { code?: unknown; stdout?: string }) => {
      if (typeof error.code === 'number' && options.exitCodes?.includes(error.code))
        return { stdout: error.stdout ?? '' };
      throw error;
    });
    const seconds = (performance.now() - startedAt) / 1000;
    const finished: Finished = { stdout, startedAt, seconds };
    if (scratch) finished.maxRssMiB = Number(readFileSync(rssFile, 'utf8').trim().split('\n').pop()) / 1024;
    return finished;
  } catch (error) {
    const stderr = String((error as { stderr?: string }).stderr || error);
    throw new Error(
      `${[file, ...args].join(' ').slice(0, 200)} failed: ${stderr
        .split('\n')
        .filter((line) => line.length < 300)
        .slice(-20)
        .join('\n')}`,
    );
  } finally {
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  }
}

/** The last line a child printed, as JSON. */
export function lastJsonLine<T>(stdout: string): T {
  return JSON.parse(stdout.trim().split('\n').pop() ?? '{}') as T;
}
