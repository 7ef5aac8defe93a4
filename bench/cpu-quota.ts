import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Lambda gives a function CPU in proportion to its memory: one full vCPU at 1,769 MB. */
export const MB_PER_VCPU = 1769;

/** The CFS bandwidth period; the quota is this times the share of one CPU. */
const PERIOD_US = 100_000;

/** cgroup v2's `cpu.max`, or cgroup v1's cpu controller where v1 still holds it (hybrid hosts). */
const HIERARCHIES = [
  { root: '/sys/fs/cgroup', v2: true },
  { root: '/sys/fs/cgroup/unified', v2: true },
  { root: '/sys/fs/cgroup/cpu', v2: false },
];

export interface CpuQuota {
  /** The command that runs `file args` inside the quota. */
  wrap(file: string, args: readonly string[]): { file: string; args: string[] };
  remove(): void;
}

/**
 * A cgroup whose processes together get `vcpus` of one CPU per period (the CFS bandwidth limit
 * Lambda's share amounts to), for a child started through `wrap`. Needs root; throws saying why
 * when this machine cannot give one.
 */
export function cpuQuota(memoryMb: number): CpuQuota {
  const vcpus = memoryMb / MB_PER_VCPU;
  const quotaUs = Math.round(PERIOD_US * vcpus);
  const hierarchy = HIERARCHIES.find(({ root, v2 }) =>
    v2
      ? existsSync(join(root, 'cgroup.subtree_control')) && canEnableCpu(root)
      : existsSync(join(root, 'cpu.cfs_quota_us')),
  );
  if (!hierarchy)
    throw new Error('no cgroup with a CPU controller here (cgroup v2 cpu.max or v1 cpu.cfs_quota_us)');
  const dir = join(hierarchy.root, `responder-bench-${process.pid}-${memoryMb}mb`);
  mkdirSync(dir);
  if (hierarchy.v2) writeFileSync(join(dir, 'cpu.max'), `${quotaUs} ${PERIOD_US}`);
  else {
    writeFileSync(join(dir, 'cpu.cfs_period_us'), String(PERIOD_US));
    writeFileSync(join(dir, 'cpu.cfs_quota_us'), String(quotaUs));
  }
  return {
    // The shell joins the cgroup, then becomes the child, so the child is in it from its first instruction.
    wrap: (file, args) => ({
      file: '/bin/sh',
      args: ['-c', `echo $$ > ${join(dir, 'cgroup.procs')} && exec "$0" "$@"`, file, ...args],
    }),
    remove: () => rmdirSync(dir),
  };
}

/** Whether the v2 root's children may use the cpu controller (it is not held by a v1 hierarchy). */
function canEnableCpu(root: string): boolean {
  try {
    if (readFileSync(join(root, 'cgroup.subtree_control'), 'utf8').split(/\s+/).includes('cpu')) return true;
    writeFileSync(join(root, 'cgroup.subtree_control'), '+cpu');
    return true;
  } catch {
    return false;
  }
}
