import { stableNumber } from '../../format/hash.ts';
import type { CommandContext } from '../../types.ts';
import { type AgentCgroup, cgroupInode, resolveAgentCgroup } from './agent-cgroup-mounts.ts';
import { binaryPaths } from './binaries.ts';
import { containerHostname } from './hostname.ts';
import { agentMountinfo, agentProcMounts } from './mount-table.ts';
import { namespaceLink } from './namespaces.ts';
import { normalizePath } from './paths.ts';

export type FsEntry =
  | { kind: 'cgroup'; inode: number; cgroup: AgentCgroup }
  | { kind: 'directory'; inode: number; fsType: string }
  | { kind: 'file'; inode: number; fsType: string; content: () => string }
  | { kind: 'symlink'; inode: number; fsType: string; target: string };

const COMMON_DIRECTORIES = [
  '/',
  '/dev',
  '/etc',
  '/proc',
  '/proc/self',
  '/proc/self/ns',
  '/sys',
  '/tmp',
  '/usr',
  '/usr/bin',
  '/var',
];
const AGENT_DIRECTORIES = [
  '/home',
  '/host',
  '/opt',
  '/root',
  '/run',
  '/run/cilium',
  '/sys/fs',
  '/sys/fs/bpf',
  '/usr/local',
  '/usr/local/bin',
  '/usr/sbin',
];

/**
 * What a path is inside the container: the agent container's cgroup2 mounts resolve into the host
 * cgroup tree; a handful of files and links answer the runbooks' questions (mountinfo, namespaces,
 * hostname); everything else does not exist.
 */
export function lookupPath(ctx: CommandContext, path: string): FsEntry | undefined {
  const normalized = resolveSymlinkedDirs(normalizePath(path));
  const inode = 1000 + (stableNumber(normalized) % 5_000_000);
  const agent = ctx.agent;
  if (agent) {
    const cgroup = resolveAgentCgroup(ctx.cluster, agent, normalized);
    if (cgroup) return { kind: 'cgroup', inode: cgroupInode(agent, cgroup.hostPath), cgroup };
  }
  const files = agent ? agentFiles(ctx) : {};
  const content = files[normalized] ?? commonFiles(ctx)[normalized];
  if (content) return { kind: 'file', inode, fsType: fsTypeOf(normalized), content };
  const link = symlinks(ctx)[normalized];
  if (link) return { kind: 'symlink', inode, fsType: fsTypeOf(normalized), target: link };
  const directories = agent ? [...COMMON_DIRECTORIES, ...AGENT_DIRECTORIES] : COMMON_DIRECTORIES;
  if (directories.includes(normalized)) return { kind: 'directory', inode, fsType: fsTypeOf(normalized) };
  return undefined;
}

/** /bin, /sbin and /var/run are links into /usr and /run in the (merged-usr) images. */
function resolveSymlinkedDirs(path: string): string {
  return path
    .replace(/^\/bin(?=\/|$)/, '/usr/bin')
    .replace(/^\/sbin(?=\/|$)/, '/usr/sbin')
    .replace(/^\/var\/run(?=\/|$)/, '/run');
}

function commonFiles(ctx: CommandContext): Record<string, () => string> {
  const files: Record<string, () => string> = {
    '/etc/hostname': () => `${containerHostname(ctx)}\n`,
    '/proc/sys/kernel/hostname': () => `${containerHostname(ctx)}\n`,
  };
  for (const path of binaryPaths(ctx)) files[path] = () => '\u007fELF';
  return files;
}

function agentFiles(ctx: CommandContext): Record<string, () => string> {
  const agent = ctx.agent;
  if (!agent) return {};
  return {
    '/proc/self/mountinfo': () => agentMountinfo(ctx, agent),
    '/proc/mounts': () => agentProcMounts(ctx, agent),
    '/proc/self/mounts': () => agentProcMounts(ctx, agent),
    // In its own cgroup namespace a process sees its cgroup as the root.
    '/proc/self/cgroup': () => `0::${agent.cgroup.privateNamespace ? '/' : agent.cgroup.containerPath}\n`,
  };
}

function symlinks(ctx: CommandContext): Record<string, string> {
  const links: Record<string, string> = {
    '/proc/self/ns/cgroup': namespaceLink(ctx, 'cgroup'),
    '/proc/self/ns/net': namespaceLink(ctx, 'net'),
    '/proc/self/ns/mnt': namespaceLink(ctx, 'mnt'),
  };
  if (ctx.agent?.cli === 'both') links['/usr/bin/cilium'] = 'cilium-dbg';
  return links;
}

function fsTypeOf(path: string): string {
  if (path === '/proc' || path.startsWith('/proc/')) return 'proc';
  if (path === '/sys/fs/bpf') return 'bpf_fs';
  if (path === '/sys' || path.startsWith('/sys/')) return 'sysfs';
  if (path === '/dev') return 'tmpfs';
  return 'overlayfs';
}
