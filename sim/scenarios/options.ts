import type { AgentCli, AttachTypeSpelling, IptablesBackend, IptablesState } from '../agent-state.ts';
import { MAX_NODES } from './addresses.ts';

/** cilium-config `kube-proxy-replacement`: `true`/`false` since 1.14, older `strict`/`partial`/`probe`/`disabled`. */
export type KubeProxyReplacement = 'true' | 'false' | 'strict' | 'partial' | 'probe' | 'disabled';

/** Why cross-node tunnel traffic dies (domain incident 3). */
export type VxlanCause = 'udp-blocked' | 'health-port-blocked' | 'icmp-blocked';

/** Every knob a scenario takes; each maps to a variant the runbooks must accept (sim/agent-state.ts). */
export interface ScenarioOptions {
  /** Seed of every random choice (names, uids, ids, addresses). Default 1. */
  seed?: number;
  /** The clock: ages are measured back from it, and the store stamps new objects with it. */
  now?: () => Date;
  clusterName?: string;
  /** Worker nodes. Default 4; `scale` defaults to 1,000. */
  nodes?: number;
  /** `scale` only: workload pods (each with a CEP) per node. Default 30. */
  podsPerNode?: number;

  /** Cilium semver, e.g. `1.17.6` (default) or `1.13.9`; picks the defaults of the fields below. */
  ciliumVersion?: string;
  /** Agent CLI binaries in the image. Default `both` from 1.15, `cilium-only` before. */
  agentCli?: AgentCli;
  /** bpftool attach-type names. Default `libbpf`. */
  bpftool?: AttachTypeSpelling;
  /** The iptables backend holding Cilium's rules. Default `nft`. */
  iptablesBackend?: IptablesBackend;
  /** Excluded-marks list before the host-mark rule. Default `v1.16` from 1.16, `v1.14` before. */
  iptablesMarkVariant?: IptablesState['markRuleVariant'];
  /** Default `true` from 1.14, `strict` before. */
  kubeProxyReplacement?: KubeProxyReplacement;
  /** The kube-proxy DaemonSet (the EKS add-on) in kube-system. Default on, as EKS installs it. */
  kubeProxy?: boolean;
  /** Socket-LB (cilium-config `bpf-lb-sock`). Default: on. */
  socketLB?: boolean;
  socketLBHostnsOnly?: boolean;
  /** Default `cluster-pool` when tunnelling, `eni` for native routing. */
  ipam?: 'eni' | 'cluster-pool';
  /** Default `tunnel`, so the tunnel runbook has work to check. */
  routingMode?: 'tunnel' | 'native';
  tunnelProtocol?: 'vxlan' | 'geneve';
  /** Default 8472 for VXLAN, 6081 for Geneve. */
  tunnelPort?: number;

  /** `vxlan-blocked`: what the node security groups drop. Default `udp-blocked`. */
  vxlanCause?: VxlanCause;
  /** The Helm chart's `mount-cgroup` init container (`cgroup.autoMount.enabled`). Default on. */
  cgroupAutoMount?: boolean;
  /** `cgroup-private-ns`, `cgroup-hooks-*`: how many nodes (from the first) are broken. Default all. */
  brokenCgroupNodes?: number;
  /** cilium-config `install-iptables-rules`. Default true. */
  installIptablesRules?: boolean;
  /** With `install-iptables-rules=false`, whether the agent still creates its (empty) chains. Default true. */
  ciliumChainsWithoutRules?: boolean;
  /** aws-node pods carry `app.kubernetes.io/name=aws-node` (the EKS add-on; a custom Helm install may not). Default true. */
  awsNodeNameLabel?: boolean;
  /** Nodes (from the last) whose agent is not ready. Default 0. */
  agentNotReadyNodes?: number;
  /** cilium-config `unmanaged-pod-watcher-interval`: `15`, `15s`, or `0` (off). Default `15`. */
  unmanagedPodWatcherInterval?: string;
  /** cilium-config `pod-restart-selector`. Default `k8s-app=kube-dns`. */
  podRestartSelector?: string;
}

export type ResolvedOptions = Required<Omit<ScenarioOptions, 'brokenCgroupNodes'>> &
  Pick<ScenarioOptions, 'brokenCgroupNodes'>;

/** Workload pods (each with its CiliumEndpoint) the compact store holds well inside 8 GiB of heap. */
const MAX_WORKLOAD_PODS = 3_600_000;

/** Compares dotted versions numerically: `1.9` < `1.14`. */
export function versionAtLeast(version: string, minimum: string): boolean {
  const a = version.split('.').map(Number);
  const b = minimum.split('.').map(Number);
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const diff = (a[i] ?? 0) - (b[i] ?? 0);
    if (diff !== 0) return diff > 0;
  }
  return true;
}

export function resolveOptions(options: ScenarioOptions): ResolvedOptions {
  const ciliumVersion = options.ciliumVersion ?? '1.17.6';
  const routingMode = options.routingMode ?? 'tunnel';
  const tunnelProtocol = options.tunnelProtocol ?? 'vxlan';
  return {
    seed: 1,
    now: () => new Date(),
    clusterName: 'sim',
    nodes: 4,
    podsPerNode: 30,
    agentCli: versionAtLeast(ciliumVersion, '1.15') ? 'both' : 'cilium-only',
    bpftool: 'libbpf',
    iptablesBackend: 'nft',
    iptablesMarkVariant: versionAtLeast(ciliumVersion, '1.16') ? 'v1.16' : 'v1.14',
    kubeProxyReplacement: versionAtLeast(ciliumVersion, '1.14') ? 'true' : 'strict',
    kubeProxy: true,
    socketLB: true,
    socketLBHostnsOnly: false,
    ipam: routingMode === 'tunnel' ? 'cluster-pool' : 'eni',
    tunnelPort: tunnelProtocol === 'geneve' ? 6081 : 8472,
    vxlanCause: 'udp-blocked',
    cgroupAutoMount: true,
    installIptablesRules: true,
    ciliumChainsWithoutRules: true,
    agentNotReadyNodes: 0,
    awsNodeNameLabel: true,
    unmanagedPodWatcherInterval: '15',
    podRestartSelector: 'k8s-app=kube-dns',
    ...(Object.fromEntries(
      Object.entries(options).filter(([, value]) => value !== undefined),
    ) as ScenarioOptions),
    ciliumVersion,
    routingMode,
    tunnelProtocol,
  };
}

const CHOICES: { [K in keyof ResolvedOptions]?: readonly string[] } = {
  agentCli: ['cilium-dbg-only', 'cilium-only', 'both'],
  bpftool: ['legacy', 'libbpf'],
  iptablesBackend: ['nft', 'legacy'],
  iptablesMarkVariant: ['v1.14', 'v1.16'],
  kubeProxyReplacement: ['true', 'false', 'strict', 'partial', 'probe', 'disabled'],
  ipam: ['eni', 'cluster-pool'],
  routingMode: ['tunnel', 'native'],
  tunnelProtocol: ['vxlan', 'geneve'],
  vxlanCause: ['udp-blocked', 'health-port-blocked', 'icmp-blocked'],
};

function wholeNumber(name: string, value: number | undefined, min: number, max: number): void {
  if (value !== undefined && (!Number.isInteger(value) || value < min || value > max)) {
    throw new Error(`scenario option ${name} must be a whole number from ${min} to ${max}, got ${value}`);
  }
}

/** Rejects options no cluster can have, naming the option (they often come from a command line). */
export function validateOptions(options: ResolvedOptions): void {
  for (const [name, choices] of Object.entries(CHOICES)) {
    const value = options[name as keyof ResolvedOptions];
    if (!choices.includes(value as string)) {
      throw new Error(`scenario option ${name} must be one of ${choices.join(', ')}, got ${String(value)}`);
    }
  }
  wholeNumber('nodes', options.nodes, 1, MAX_NODES);
  wholeNumber('podsPerNode', options.podsPerNode, 0, 250);
  wholeNumber('tunnelPort', options.tunnelPort, 1, 65_535);
  if (options.nodes * options.podsPerNode > MAX_WORKLOAD_PODS) {
    throw new Error(
      `scenario options nodes x podsPerNode must be at most ${MAX_WORKLOAD_PODS.toLocaleString('en-US')} pods (what the simulator holds in memory), got ${options.nodes} x ${options.podsPerNode}`,
    );
  }
  wholeNumber('brokenCgroupNodes', options.brokenCgroupNodes, 0, options.nodes);
  wholeNumber('agentNotReadyNodes', options.agentNotReadyNodes, 0, options.nodes - 1);
  if (!/^\d+s?$/.test(options.unmanagedPodWatcherInterval)) {
    throw new Error(
      `scenario option unmanagedPodWatcherInterval must look like 15, 15s or 0, got ${options.unmanagedPodWatcherInterval}`,
    );
  }
  if (!/^\d+\.\d+\.\d+$/.test(options.ciliumVersion)) {
    throw new Error(
      `scenario option ciliumVersion must be a version such as 1.17.6, got ${options.ciliumVersion}`,
    );
  }
}
