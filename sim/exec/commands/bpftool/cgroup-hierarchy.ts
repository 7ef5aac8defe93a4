import type { AgentState, HookPlacement } from '../../../agent-state.ts';
import { AGENT_CONTAINER, AGENT_LABEL, type SimCluster } from '../../../cluster.ts';
import type { Pod } from '../../../objects.ts';
import { NewestEntries } from '../../facts/newest-entries.ts';
import { podsOnNode } from '../../facts/pods-by-node.ts';
import { stableHex, stableNumber } from '../../format/hash.ts';
import { type AttachType, SOCKET_LB_HOOKS } from './attach-types.ts';

export interface BpfProgram {
  id: number;
  type: AttachType;
  flags: 'multi' | '';
  /** The full name; bpftool decides how much of it to print. */
  name: string;
  /** Attached through a bpf_link (systemd's and Cilium's are), pinned in bpffs or not. */
  link?: { pinned?: string };
}

/** Where Cilium pins its socket-LB links (pkg/socketlb), one per program name. */
export const CILIUM_LINK_PINS = '/sys/fs/bpf/cilium/socketlb/links/cgroup';

export interface Cgroup {
  name: string;
  programs: BpfProgram[];
  children: Cgroup[];
}

/** systemd units on an EKS AL2023 node and the programs systemd attaches (IPAddressDeny=, DevicePolicy=). */
const SYSTEMD_UNITS: readonly { path: string; programs: readonly [AttachType, string][] }[] = [
  { path: '/system.slice/containerd.service', programs: [] },
  { path: '/system.slice/kubelet.service', programs: [] },
  {
    path: '/system.slice/systemd-journald.service',
    programs: [
      ['inet_ingress', 'sd_fw_ingress'],
      ['inet_egress', 'sd_fw_egress'],
    ],
  },
  {
    path: '/system.slice/systemd-logind.service',
    programs: [
      ['inet_ingress', 'sd_fw_ingress'],
      ['inet_egress', 'sd_fw_egress'],
      ['device', 'sd_devices'],
    ],
  },
  { path: '/system.slice/systemd-networkd.service', programs: [['device', 'sd_devices']] },
  {
    path: '/system.slice/systemd-udevd.service',
    programs: [
      ['inet_ingress', 'sd_fw_ingress'],
      ['inet_egress', 'sd_fw_egress'],
    ],
  },
];

/** systemd's unit programs with the ids the kernel gave them at boot (from 4, in unit order), all links. */
export function systemdPrograms(): { path: string; program: BpfProgram }[] {
  let nextId = 4;
  return SYSTEMD_UNITS.flatMap((unit) =>
    unit.programs.map(([type, name]) => ({
      path: unit.path,
      program: { id: nextId++, type, flags: 'multi' as const, name, link: {} },
    })),
  );
}

/** The order the kernel handed out ids to Cilium's hooks when it loaded them (not attach order). */
const HOOK_ID_OFFSETS = [7, 9, 0, 1, 5, 6, 3, 2, 4, 8];

/**
 * The node's whole cgroup v2 hierarchy as the host sees it, with the BPF programs attached to each
 * cgroup: systemd's unit programs, runc's device filter on every container scope, and Cilium's
 * socket-LB hooks on the host root when the agent's cgroup mount is the host root, or on the agent
 * container's own scope when it is not (incident 2).
 */
export function hostCgroupTree(cluster: SimCluster, agent: AgentState): Cgroup {
  // Built once per agent while the pods and the agent's cgroup facts stay the same: a fan-out runs
  // stat and bpftool against it thousands of times. Readers never change the tree.
  const key = `${cluster.store.revision}|${agent.node}|${JSON.stringify(hookSets(agent))}|${agent.cgroup.containerPath}`;
  let trees = treeCaches.get(cluster);
  if (!trees) {
    trees = new NewestEntries(TREES_KEPT);
    treeCaches.set(cluster, trees);
  }
  const cached = trees.get(agent);
  if (cached?.key === key) return cached.tree;
  const tree = buildHostCgroupTree(cluster, agent);
  // The oldest tree goes, and the walks printed from it with it (bpftool keeps them by tree node).
  trees.set(agent, { key, tree });
  return tree;
}

/**
 * Trees kept per cluster, the most recently built: every agent of a 5,000-node cluster, round
 * after round. A tree and its walks are tens of KiB, so keeping every agent's would grow the
 * simulator by gigabytes at 100,000 nodes; there each round rebuilds them.
 */
const TREES_KEPT = 8_192;
const treeCaches = new WeakMap<SimCluster, NewestEntries<AgentState, { key: string; tree: Cgroup }>>();

/**
 * The root is built at once and its children on first look: a healthy fan-out reads only the root
 * (`stat` and `bpftool cgroup show` of the cgroup mount), and building every pod's scopes for 5,000
 * nodes would cost the simulator more than the execs it serves.
 */
function buildHostCgroupTree(cluster: SimCluster, agent: AgentState): Cgroup {
  const sets = hookSets(agent).filter((set) => !set.removed);
  const programs = sets.flatMap((set) => (set.cgroup === '/' ? socketLbHooks(agent, set) : []));
  let children: Cgroup[] | undefined;
  return {
    name: '',
    programs,
    get children() {
      children ??= buildChildren(cluster, agent, sets);
      return children;
    },
  };
}

/** One set of Cilium's hooks: some or all of the ten, on one cgroup, live or removed. */
export interface HookSet {
  cgroup: string;
  types: readonly AttachType[];
  removed: boolean;
  /** Its place among the node's sets: each set was loaded anew, so its programs have their own ids. */
  index: number;
}

const ALL_HOOK_TYPES = SOCKET_LB_HOOKS.map((hook) => hook.type);

function setOf(placement: string | HookPlacement, index: number): HookSet {
  if (typeof placement === 'string')
    return { cgroup: placement, types: ALL_HOOK_TYPES, removed: false, index };
  const types = placement.hooks
    ? ALL_HOOK_TYPES.filter((type) => placement.hooks?.includes(type))
    : ALL_HOOK_TYPES;
  return { cgroup: placement.cgroup, types, removed: placement.removed === true, index };
}

/** Where the socket-LB hooks are: where a scenario left them, else on the agent's cgroup mount. */
export function hookSets(agent: AgentState): HookSet[] {
  if (!agent.socketLB) return [];
  const placements = agent.cgroup.hookCgroups ?? [
    agent.cgroup.mountIsHostRoot ? '/' : agent.cgroup.containerPath,
  ];
  return placements.map(setOf);
}

/**
 * One set of Cilium's socket-LB hooks with the ids the kernel gave them on this node (each set
 * loaded anew), all attached as links. The agent has one pin per program name: a link is pinned
 * when no earlier set holds that pin; a later set's links live on only while something holds them.
 */
export function socketLbHooks(agent: AgentState, set: HookSet): BpfProgram[] {
  const base = 1000 + (stableNumber(agent.node) % 2000) + set.index * SOCKET_LB_HOOKS.length;
  const earlier = hookSets(agent).slice(0, set.index);
  return SOCKET_LB_HOOKS.flatMap((hook, i) =>
    set.types.includes(hook.type)
      ? [
          {
            id: base + (HOOK_ID_OFFSETS[i] as number),
            type: hook.type,
            flags: 'multi' as const,
            name: hook.name,
            link: earlier.some((other) => other.types.includes(hook.type))
              ? {}
              : { pinned: `${CILIUM_LINK_PINS}/${hook.name}` },
          },
        ]
      : [],
  );
}

function buildChildren(cluster: SimCluster, agent: AgentState, sets: readonly HookSet[]): Cgroup[] {
  const root: Cgroup = { name: '', programs: [], children: [] };
  let nextId = 100;
  const attach = (cgroup: Cgroup, type: AttachType, name: string) =>
    cgroup.programs.push({ id: nextId++, type, flags: 'multi', name });

  ensure(root, '/init.scope');
  for (const unit of SYSTEMD_UNITS) ensure(root, unit.path);
  for (const { path, program } of systemdPrograms()) ensure(root, path).programs.push(program);
  for (const pod of podsOnNode(cluster, agent.node)) {
    for (const path of containerScopes(pod)) attach(ensure(root, path), 'device', '');
  }
  const agentScope = ensure(root, agent.cgroup.containerPath);
  if (agentScope.programs.length === 0) attach(agentScope, 'device', '');
  for (const set of sets) {
    if (set.cgroup !== '/') ensure(root, set.cgroup).programs.push(...socketLbHooks(agent, set));
  }
  return root.children;
}

/** The cgroup at a host path, if it exists. */
export function findCgroup(root: Cgroup, hostPath: string): Cgroup | undefined {
  let current: Cgroup | undefined = root;
  for (const segment of segments(hostPath)) current = current?.children.find((c) => c.name === segment);
  return current;
}

/** The programs attached to a host path's ancestors, nearest first: what it inherits (`effective`). */
export function inheritedPrograms(root: Cgroup, hostPath: string): BpfProgram[] {
  const chain: Cgroup[] = [root];
  for (const segment of segments(hostPath).slice(0, -1)) {
    const child = chain[chain.length - 1]?.children.find((c) => c.name === segment);
    if (!child) break;
    chain.push(child);
  }
  return segments(hostPath).length === 0 ? [] : chain.reverse().flatMap((cgroup) => cgroup.programs);
}

function ensure(root: Cgroup, hostPath: string): Cgroup {
  let current = root;
  for (const segment of segments(hostPath)) {
    let child = current.children.find((c) => c.name === segment);
    if (!child) {
      child = { name: segment, programs: [], children: [] };
      current.children.push(child);
    }
    current = child;
  }
  return current;
}

function segments(path: string): string[] {
  return path.split('/').filter(Boolean);
}

/**
 * The systemd cgroup driver's scopes for a pod's sandbox and containers:
 * `/kubepods.slice/kubepods-<qos>.slice/kubepods-<qos>-pod<uid>.slice/cri-containerd-<id>.scope`.
 * The agent's own container is left out: its scope is the scenario's `cgroup.containerPath`.
 */
function containerScopes(pod: Pod): string[] {
  const uid = pod.metadata.uid ?? stableHex(`${pod.metadata.namespace}/${pod.metadata.name}`, 32);
  const qos = String(pod.status?.qosClass ?? 'Burstable').toLowerCase();
  const podSlice =
    qos === 'guaranteed'
      ? `/kubepods.slice/kubepods-pod${uid.replaceAll('-', '_')}.slice`
      : `/kubepods.slice/kubepods-${qos}.slice/kubepods-${qos}-pod${uid.replaceAll('-', '_')}.slice`;
  const isAgent = pod.metadata.labels?.['k8s-app'] === AGENT_LABEL['k8s-app'];
  const containers = pod.spec.containers.filter((c) => !(isAgent && c.name === AGENT_CONTAINER));
  const ids = [
    stableHex(`${uid}/sandbox`, 64),
    ...containers.map((c) => {
      const status = pod.status?.containerStatuses?.find((s) => s.name === c.name);
      return status?.containerID?.replace(/^[a-z]+:\/\//, '') ?? stableHex(`${uid}/${c.name}`, 64);
    }),
  ];
  return ids.map((id) => `${podSlice}/cri-containerd-${id}.scope`);
}
