import type { CommandContext } from '../../types.ts';

/** Where each simulated executable is installed (merged /usr: /bin and /sbin lead here too). */
const INSTALL_DIRS: Record<string, string> = {
  cat: '/usr/bin',
  echo: '/usr/bin',
  false: '/usr/bin',
  hostname: '/usr/bin',
  sh: '/usr/bin',
  true: '/usr/bin',
  readlink: '/usr/bin',
  stat: '/usr/bin',
  timeout: '/usr/bin',
  uname: '/usr/bin',
  cilium: '/usr/bin',
  'cilium-dbg': '/usr/bin',
  'cilium-health': '/usr/bin',
  bpftool: '/usr/local/bin',
  iptables: '/usr/sbin',
  'iptables-nft': '/usr/sbin',
  'iptables-legacy': '/usr/sbin',
  'iptables-save': '/usr/sbin',
  'iptables-nft-save': '/usr/sbin',
  'iptables-legacy-save': '/usr/sbin',
};

/** What every container has; everything else exists only in the agent image. */
const EVERYWHERE = new Set(['cat', 'echo', 'false', 'hostname', 'sh', 'true']);

/** Whether the container has this executable; the agent's CLI name depends on the Cilium release. */
export function hasBinary(ctx: CommandContext, name: string): boolean {
  if (!(name in INSTALL_DIRS)) return false;
  if (EVERYWHERE.has(name)) return true;
  const cli = ctx.agent?.cli;
  if (!cli) return false;
  if (name === 'cilium-dbg') return cli !== 'cilium-only';
  if (name === 'cilium') return cli !== 'cilium-dbg-only';
  return true;
}

/** The installed executables' paths, `cilium` excluded when it is a link to cilium-dbg. */
export function binaryPaths(ctx: CommandContext): string[] {
  return Object.entries(INSTALL_DIRS)
    .filter(([name]) => hasBinary(ctx, name) && !(name === 'cilium' && ctx.agent?.cli === 'both'))
    .map(([name, dir]) => `${dir}/${name}`);
}
