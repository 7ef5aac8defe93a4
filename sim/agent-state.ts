/**
 * What a simulated Cilium agent "is" on its node: the facts its commands (cilium-dbg, bpftool,
 * iptables-save, cilium-health, coreutils) answer from. Scenarios set these; exec reads them.
 * Every output variant the runbooks must accept (CLI names, bpftool spellings, iptables backends
 * and mark rules, cgroup mounts) is reachable through one of these fields.
 */

/** Which agent CLI binaries the image ships (domain: `cilium-dbg`, older `cilium`, newer keep a symlink). */
export type AgentCli = 'cilium-dbg-only' | 'cilium-only' | 'both';

/** bpftool's attach-type names: old (`connect4`) or libbpf's current (`cgroup_inet4_connect`). */
export type AttachTypeSpelling = 'legacy' | 'libbpf';

export type IptablesBackend = 'nft' | 'legacy';

export interface CgroupState {
  /** The agent's configured cgroup root (cilium-config `cgroup-root`). */
  root: string;
  /**
   * True when the agent's cgroup2 mount at `root` is the host's real root (inode 1): the
   * mount-cgroup init container did its job, or the agent shares the host cgroup namespace.
   * False is incident 2: the mount is the agent container's own cgroup, so socket hooks sit there.
   */
  mountIsHostRoot: boolean;
  /** The agent runs in a private cgroup namespace (`readlink /proc/self/ns/cgroup` differs from the host's). */
  privateNamespace: boolean;
  /** Host cgroup path of the agent's own container, e.g. `/kubepods.slice/.../cri-containerd-<64 hex>.scope`. */
  containerPath: string;
  /** Inode of the agent's cgroup mount when it is not the host root. */
  containerInode: number;
  /**
   * Where the socket-LB hooks are attached (`/` is the host root), when not where the agent's
   * mount is: Cilium pins its cgroup links in bpffs and, on restart, updates the pinned links
   * rather than attaching anew, so an agent that restarted with a different cgroup root keeps its
   * hooks where the earlier one attached them (cilium#27848, #48420). A host path stands for all
   * ten hooks; a placement may name some hook types only (a split set), or a cgroup that was
   * removed while sockets opened in it keep it alive (its links stay, no walk reaches it).
   */
  hookCgroups?: (string | HookPlacement)[];
}

/** Some of Cilium's hooks on one cgroup. */
export interface HookPlacement {
  /** Host cgroup path. */
  cgroup: string;
  /** Attach types (`connect4`, `getpeername6`...); all ten when absent. */
  hooks?: readonly string[];
  /** The cgroup was removed (rmdir) but is kept alive, dying, by sockets opened in it. */
  removed?: boolean;
}

export interface IptablesState {
  /** The backend whose tables hold Cilium's rules; the other holds only a few kubelet chains or nothing. */
  backend: IptablesBackend;
  /** iptables version printed in the save header, e.g. `1.8.9`. */
  version: string;
  /** Incident 4: false when `install-iptables-rules` was false, so CILIUM_OUTPUT lacks the host mark rule. */
  hostMarkRule: boolean;
  /** Whether Cilium installed its chains at all (false with install-iptables-rules=false on some versions). */
  ciliumChains: boolean;
  /** The "excluded marks" list before the host-mark rule varies by Cilium version. */
  markRuleVariant: 'v1.14' | 'v1.16';
}

/** A cilium-health probe result to one address: empty status when OK, an error string otherwise. */
export interface ProbeResult {
  icmp: string;
  http: string;
}

export interface HealthState {
  /**
   * Per peer node name: the result of probing that peer's host address and its health endpoint.
   * Peers absent here are healthy. Generated lazily from the cluster's nodes when asked.
   */
  peers: Record<string, { host: ProbeResult; endpoint: ProbeResult }>;
}

export interface DropEvent {
  /** e.g. `Policy denied`. */
  reason: string;
  sourceIdentity: number;
  destinationIdentity: number;
  source: string;
  destination: string;
  /** e.g. `tcp SYN`. */
  summary: string;
  endpointId: number;
}

export interface AgentState {
  node: string;
  /** Semver of the simulated Cilium, e.g. `1.16.5`. */
  ciliumVersion: string;
  cli: AgentCli;
  bpftool: { spelling: AttachTypeSpelling };
  /** Agent is Ready; a not-ready agent leaves the `node.cilium.io/agent-not-ready` taint on its node. */
  ready: boolean;
  /** `kube-proxy-replacement.features.socketLB.enabled` in `cilium-dbg status -o json`. */
  socketLB: boolean;
  /** `kube-proxy-replacement.mode` in status JSON (`True`, `False`, or older `Strict`, `Partial`, `Disabled`). */
  kubeProxyReplacementMode: string;
  cgroup: CgroupState;
  iptables: IptablesState;
  health: HealthState;
  /** Drops `cilium-dbg monitor --type drop` prints. */
  drops: DropEvent[];
  /** Agent log lines for `pods/log` (e.g. "Mounted cgroupv2 filesystem"). */
  logs: string[];
}

/** AWS-side facts the tunnel runbook reads through EC2 (served by a mock in tests, not by the sim). */
export interface SecurityGroupRule {
  protocol: 'tcp' | 'udp' | 'icmp' | '-1';
  fromPort?: number;
  toPort?: number;
  /** Source security group, or CIDR. */
  sourceGroupId?: string;
  cidr?: string;
}

export interface SecurityGroup {
  groupId: string;
  groupName: string;
  ingress: SecurityGroupRule[];
}

export interface AwsState {
  region: string;
  securityGroups: SecurityGroup[];
  /** EC2 instance id → security group ids of its primary ENI. */
  instanceSecurityGroups: Record<string, string[]>;
}
