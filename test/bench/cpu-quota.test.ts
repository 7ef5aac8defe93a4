import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { cpuQuota, MB_PER_VCPU } from '../../bench/cpu-quota.ts';

/** A child that spins for one second of wall time and prints its CPU share of that second. */
const SPIN =
  'const t = Date.now(); const c = process.cpuUsage(); while (Date.now() - t < 1000) {} const u = process.cpuUsage(c); console.log((u.user + u.system) / 1e3 / (Date.now() - t))';

describe("the bench's Lambda CPU quota", () => {
  it('holds a busy child to the CPU share of the memory size, or says why this machine cannot', () => {
    let quota: ReturnType<typeof cpuQuota> | undefined;
    try {
      quota = cpuQuota(1024);
    } catch (error) {
      // Not root, or no CPU controller: the bench reports the figure as not measured, with this reason.
      expect((error as Error).message).toMatch(/no cgroup with a CPU controller here|EACCES|EPERM|EROFS/);
      return;
    }
    try {
      const { file, args } = quota.wrap(process.execPath, ['-e', SPIN]);
      const share = Number(execFileSync(file, args, { encoding: 'utf8' }).trim());
      expect(share).toBeGreaterThan(0);
      expect(share).toBeLessThan(1024 / MB_PER_VCPU + 0.1);
    } finally {
      quota.remove();
    }
  });
});
