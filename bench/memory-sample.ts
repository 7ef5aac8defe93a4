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
