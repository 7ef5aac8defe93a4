import { readFileSync } from 'node:fs';
import { getHeapSpaceStatistics } from 'node:v8';

const MiB = 1024 * 1024;
const mib = (bytes: number) => Number((bytes / MiB).toFixed(1));

/**
 * The process's memory now, in MiB: its RSS, V8's heap (used and reserved), each V8 space's use
 * and what lives outside the heap. A development aid's series, to see where a run's peak is.
 */
export function memorySample(): Record<string, number> {
  const usage = process.memoryUsage();
  const spaces = getHeapSpaceStatistics();
  const space = (name: string) => mib(spaces.find((s) => s.space_name === name)?.space_used_size ?? 0);
  return {
    rss: mib(usage.rss),
    heapUsed: mib(usage.heapUsed),
    heapTotal: mib(usage.heapTotal),
    external: mib(usage.external),
    arrayBuffers: mib(usage.arrayBuffers),
    old: space('old_space'),
    young: space('new_space'),
    large: space('large_object_space'),
    code: space('code_space'),
  };
}

/** The peak RSS (VmHWM) in a `/proc/<pid>/status` text, in MiB; undefined when it has none. */
export function peakRssFromStatus(status: string): number | undefined {
  const kib = /^VmHWM:\s+(\d+) kB$/m.exec(status)?.[1];
  return kib === undefined ? undefined : Number(kib) / 1024;
}

/**
 * This process's own peak RSS in MiB, from /proc/self/status. Not `resourceUsage().maxRSS`: Linux
 * keeps in a child's maxrss, across exec, the resident pages it shared with its parent at the fork,
 * so a child of the bench (which holds a simulator of millions of pods) reported part of the
 * bench's memory as its own. Elsewhere than Linux, maxRSS.
 */
export function ownPeakRssMiB(): number {
  let status = '';
  try {
    status = readFileSync('/proc/self/status', 'utf8');
  } catch {
    // not Linux
  }
  return peakRssFromStatus(status) ?? process.resourceUsage().maxRSS / 1024;
}
