import type { AgentState } from '../../../agent-state.ts';
import { stableHex } from '../../format/hash.ts';
import type { CommandContext } from '../../types.ts';

interface Mount {
  root: string;
  mountPoint: string;
  options: string;
  optional: string;
  fstype: string;
  source: string;
  superOptions: string;
  device: string;
}

/**
 * The agent container's mounts, in mount order: the runtime's (rootfs, /proc, /dev, /sys and its
 * cgroup2 at /sys/fs/cgroup) then the DaemonSet's volumes, among them the cgroup2 mount at the
 * configured cgroup root. That mount's root is `/` when it is the host's root and the agent
 * container's cgroup path otherwise, which is what tells the two cases apart in mountinfo.
 */
function agentMounts(ctx: CommandContext, agent: AgentState): Mount[] {
  const podUid = ctx.pod.metadata.uid ?? ctx.pod.metadata.name;
  const sandbox = stableHex(`${podUid}/sandbox`, 64);
  const disk = {
    fstype: 'xfs',
    source: '/dev/nvme0n1p1',
    superOptions: 'rw,attr2,inode64,logbufs=8,logbsize=32k,sunit=1024,swidth=1024,noquota',
    device: '259:1',
  };
  return [
    {
      root: '/',
      mountPoint: '/',
      options: 'rw,relatime',
      optional: 'master:1',
      fstype: 'overlay',
      source: 'overlay',
      superOptions: `rw,lowerdir=/var/lib/containerd/io.containerd.snapshotter.v1.overlayfs/snapshots/41/fs,upperdir=/var/lib/containerd/io.containerd.snapshotter.v1.overlayfs/snapshots/${Number.parseInt(sandbox.slice(0, 3), 16)}/fs,workdir=/var/lib/containerd/io.containerd.snapshotter.v1.overlayfs/snapshots/${Number.parseInt(sandbox.slice(0, 3), 16)}/work`,
      device: '0:72',
    },
    {
      root: '/',
      mountPoint: '/proc',
      options: 'rw,nosuid,nodev,noexec,relatime',
      optional: '',
      fstype: 'proc',
      source: 'proc',
      superOptions: 'rw',
      device: '0:75',
    },
    {
      root: '/',
      mountPoint: '/dev',
      options: 'rw,nosuid',
      optional: '',
      fstype: 'tmpfs',
      source: 'tmpfs',
      superOptions: 'rw,size=65536k,mode=755',
      device: '0:76',
    },
    {
      root: '/',
      mountPoint: '/dev/pts',
      options: 'rw,nosuid,noexec,relatime',
      optional: '',
      fstype: 'devpts',
      source: 'devpts',
      superOptions: 'rw,gid=5,mode=620,ptmxmode=666',
      device: '0:77',
    },
    {
      root: '/',
      mountPoint: '/dev/mqueue',
      options: 'rw,nosuid,nodev,noexec,relatime',
      optional: '',
      fstype: 'mqueue',
      source: 'mqueue',
      superOptions: 'rw',
      device: '0:70',
    },
    {
      root: '/',
      mountPoint: '/sys',
      options: 'rw,nosuid,nodev,noexec,relatime',
      optional: '',
      fstype: 'sysfs',
      source: 'sysfs',
      superOptions: 'rw',
      device: '0:71',
    },
    {
      root: '/',
      mountPoint: '/sys/fs/cgroup',
      options: 'rw,nosuid,nodev,noexec,relatime',
      optional: '',
      fstype: 'cgroup2',
      source: 'cgroup',
      superOptions: 'rw,nsdelegate,memory_recursiveprot',
      device: '0:26',
    },
    {
      root: '/',
      mountPoint: '/sys/fs/bpf',
      options: 'rw,nosuid,nodev,noexec,relatime',
      optional: 'master:11',
      fstype: 'bpf',
      source: 'bpf',
      superOptions: 'rw,mode=700',
      device: '0:32',
    },
    {
      root: agent.cgroup.mountIsHostRoot ? '/' : agent.cgroup.containerPath,
      mountPoint: agent.cgroup.root,
      options: 'rw,relatime',
      optional: 'master:307',
      fstype: 'cgroup2',
      source: 'none',
      superOptions: 'rw,nsdelegate,memory_recursiveprot',
      device: '0:26',
    },
    {
      ...disk,
      root: `/var/lib/kubelet/pods/${podUid}/etc-hosts`,
      mountPoint: '/etc/hosts',
      options: 'rw,noatime',
      optional: '',
    },
    {
      ...disk,
      root: `/var/lib/containerd/io.containerd.grpc.v1.cri/sandboxes/${sandbox}/hostname`,
      mountPoint: '/etc/hostname',
      options: 'rw,noatime',
      optional: '',
    },
    {
      ...disk,
      root: `/var/lib/containerd/io.containerd.grpc.v1.cri/sandboxes/${sandbox}/resolv.conf`,
      mountPoint: '/etc/resolv.conf',
      options: 'rw,noatime',
      optional: '',
    },
    {
      ...disk,
      root: '/run/xtables.lock',
      mountPoint: '/run/xtables.lock',
      options: 'rw,nosuid,nodev',
      optional: 'master:9',
      fstype: 'tmpfs',
      source: 'tmpfs',
      superOptions: 'rw,size=3171876k,nr_inodes=819200,mode=755,inode64',
      device: '0:25',
    },
    {
      ...disk,
      root: '/usr/lib/modules',
      mountPoint: '/lib/modules',
      options: 'ro,noatime',
      optional: 'master:1',
    },
    {
      root: '/',
      mountPoint: '/var/run/secrets/kubernetes.io/serviceaccount',
      options: 'ro,relatime',
      optional: '',
      fstype: 'tmpfs',
      source: 'tmpfs',
      superOptions: 'rw,size=7927184k,inode64',
      device: '0:68',
    },
  ];
}

/** /proc/self/mountinfo: `id parent major:minor root mountpoint options [optional] - fstype source superoptions`. */
export function agentMountinfo(ctx: CommandContext, agent: AgentState): string {
  const mounts = agentMounts(ctx, agent);
  return mounts
    .map((m, i) => {
      const id = 1210 + i;
      const parent = i === 0 ? 1187 : 1210;
      const optional = m.optional ? ` ${m.optional}` : '';
      return `${id} ${parent} ${m.device} ${m.root} ${m.mountPoint} ${m.options}${optional} - ${m.fstype} ${m.source} ${m.superOptions}\n`;
    })
    .join('');
}

/** /proc/mounts (what bpftool reads to find the first cgroup2 mount): `source mountpoint fstype options 0 0`. */
export function agentProcMounts(ctx: CommandContext, agent: AgentState): string {
  return agentMounts(ctx, agent)
    .map((m) => {
      const superOptions = m.superOptions.split(',').filter((o) => o !== 'rw' && o !== 'ro');
      return `${m.source} ${m.mountPoint} ${m.fstype} ${[...m.options.split(','), ...superOptions].join(',')} 0 0\n`;
    })
    .join('');
}
