import type { AgentState } from '../../agent-state.ts';
import type { Pod } from '../../objects.ts';
import { type ResolvedOptions, versionAtLeast } from '../options.ts';
import { CGROUP_ROOT } from './cilium.ts';

/** The host cgroup of a burstable pod's container, as the systemd cgroup driver names it. */
export function containerCgroupPath(podUid: string, containerId: string): string {
  const pod = podUid.replaceAll('-', '_');
  return `/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod${pod}.slice/cri-containerd-${containerId}.scope`;
}

/** The containerd id of a pod's container, from its status (`containerd://<64 hex>`). */
export function containerIdOf(pod: Pod, container: string): string {
  const status = pod.status?.containerStatuses?.find((c) => c.name === container);
  return (status?.containerID ?? '').replace('containerd://', '');
}

/** How `cilium-dbg status -o json` spells the cilium-config `kube-proxy-replacement` value. */
function statusMode(value: string | undefined): string {
  const mode = value ?? 'false';
  return mode.charAt(0).toUpperCase() + mode.slice(1);
}

export interface AgentStart {
  node: string;
  ready: boolean;
  /** The agent runs in a private cgroup namespace (the default for containers on cgroup v2). */
  privateNamespace: boolean;
  podUid: string;
  containerId: string;
  containerInode: number;
}

/** A fresh agent's state; its config-driven facts come from `applyAgentConfig`. */
export function makeAgentState(options: ResolvedOptions, start: AgentStart): AgentState {
  return {
    node: start.node,
    ciliumVersion: options.ciliumVersion,
    cli: options.agentCli,
    bpftool: { spelling: options.bpftool },
    ready: start.ready,
    socketLB: false,
    kubeProxyReplacementMode: 'False',
    cgroup: {
      root: CGROUP_ROOT,
      mountIsHostRoot: false,
      privateNamespace: start.privateNamespace,
      containerPath: containerCgroupPath(start.podUid, start.containerId),
      containerInode: start.containerInode,
    },
    iptables: {
      backend: options.iptablesBackend,
      version: versionAtLeast(options.ciliumVersion, '1.16') ? '1.8.10' : '1.8.8',
      hostMarkRule: false,
      ciliumChains: options.ciliumChainsWithoutRules,
      markRuleVariant: options.iptablesMarkVariant,
    },
    health: { peers: {} },
    drops: [],
    logs: [],
  };
}

/**
 * What an agent takes from its configuration when it starts: socket LB, KPR mode, the iptables
 * rules, whether its cgroup2 mount is the host's root (the `mount-cgroup` init container mounts the
 * host's through nsenter; without it, an agent in a private cgroup namespace gets its own cgroup),
 * and the startup log. Run at build time and again whenever the agent restarts.
 */
export function applyAgentConfig(
  state: AgentState,
  config: Readonly<Record<string, string>>,
  hasMountCgroup: boolean,
  startedAt: Date,
): void {
  state.socketLB = config['bpf-lb-sock'] === 'true';
  state.kubeProxyReplacementMode = statusMode(config['kube-proxy-replacement']);
  state.cgroup.root = config['cgroup-root'] ?? CGROUP_ROOT;
  state.cgroup.mountIsHostRoot = hasMountCgroup || !state.cgroup.privateNamespace;
  const rules = config['install-iptables-rules'] !== 'false';
  state.iptables.hostMarkRule = rules;
  state.iptables.ciliumChains = rules || state.iptables.ciliumChains;
  if (rules) state.drops = [];
  state.logs = startupLog(state, config, startedAt);
}

type Level = 'info' | 'warning' | 'error';

/** One agent log line: logrus text before 1.18, slog text from 1.18. */
function logLine(slog: boolean, at: Date, level: Level, msg: string, fields: Record<string, string>): string {
  const rest = Object.entries(fields).map(([k, v]) => ` ${k}=${/[\s"=]/.test(v) ? JSON.stringify(v) : v}`);
  if (slog) {
    return `time=${at.toISOString()} level=${level} msg=${JSON.stringify(msg)}${rest.join('')}`;
  }
  return `time="${at.toISOString().replace(/\.\d{3}Z$/, 'Z')}" level=${level} msg=${JSON.stringify(msg)}${rest.join('')}`;
}

const LOGGED_FLAGS = [
  'cgroup-root',
  'install-iptables-rules',
  'kube-proxy-replacement',
  'bpf-lb-sock',
  'routing-mode',
  'tunnel',
  'tunnel-protocol',
  'ipam',
];

function startupLog(state: AgentState, config: Readonly<Record<string, string>>, startedAt: Date): string[] {
  const v = state.ciliumVersion;
  const slog = versionAtLeast(v, '1.18');
  let ms = 0;
  const next = () => {
    ms += 350;
    return new Date(startedAt.getTime() + ms);
  };
  const line = (level: Level, msg: string, subsys: string, fields: Record<string, string> = {}) =>
    logLine(slog, next(), level, msg, {
      ...fields,
      [slog ? 'module' : 'subsys']: subsys,
    });
  const flags = LOGGED_FLAGS.filter((flag) => config[flag] !== undefined).map((flag) =>
    line('info', `  --${flag}='${config[flag]}'`, 'daemon'),
  );
  const root = state.cgroup.root;
  const cgroup = state.cgroup.mountIsHostRoot
    ? line(
        'info',
        slog ? 'Mounted cgroupv2 filesystem' : `Mounted cgroupv2 filesystem at ${root}`,
        'cgroups',
        slog ? { location: root } : {},
      )
    : line(
        'warning',
        'Failed to mount cgroupv2. Any functionality that needs cgroup (e.g.: socket-based LB) will not work.',
        'cgroups',
        {
          error: `mount cgroup2 ${root}: operation not permitted`,
        },
      );
  const end = state.ready
    ? [line('info', 'Daemon initialization completed', 'daemon', { bootstrapTime: '6.812s' })]
    : [
        line('warning', 'Waiting for k8s node information', 'daemon', {
          error: 'required IPv4 PodCIDR not available',
        }),
        line('error', 'Unable to initialize local node. Retrying...', 'daemon', {
          error: 'context deadline exceeded',
        }),
      ];
  return [line('info', `Cilium ${v} linux/amd64`, 'daemon'), ...flags, cgroup, ...end];
}
