import type { AgentState, CgroupState, IptablesState } from '../../../sim/agent-state.ts';
import { AGENT_CONTAINER, CILIUM_NAMESPACE, R, SimCluster } from '../../../sim/cluster.ts';
import { runCommand } from '../../../sim/exec/run.ts';
import type { Pod } from '../../../sim/objects.ts';

export const FIXED_NOW = new Date('2025-03-04T05:06:07Z');

export const NODES = [
  'ip-10-0-1-10.us-west-2.compute.internal',
  'ip-10-0-2-20.us-west-2.compute.internal',
  'ip-10-0-3-30.us-west-2.compute.internal',
] as const;

export const AGENT_CONTAINER_ID = 'a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f90';
export const AGENT_SCOPE = `/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod0f0e0d0c_0b0a_0908_0706_050403020100.slice/cri-containerd-${AGENT_CONTAINER_ID}.scope`;

export interface AgentOverrides extends Partial<Omit<AgentState, 'cgroup' | 'iptables'>> {
  cgroup?: Partial<CgroupState>;
  iptables?: Partial<IptablesState>;
}

/** A healthy current agent (cilium-dbg, libbpf bpftool, nft, host-root cgroup mount), with overrides. */
export function agentState(node: string, overrides: AgentOverrides = {}): AgentState {
  const { cgroup, iptables, ...rest } = overrides;
  return {
    node,
    ciliumVersion: '1.16.5',
    cli: 'both',
    bpftool: { spelling: 'libbpf' },
    ready: true,
    socketLB: true,
    kubeProxyReplacementMode: 'True',
    health: { peers: {} },
    drops: [],
    logs: [],
    ...rest,
    cgroup: {
      root: '/run/cilium/cgroupv2',
      mountIsHostRoot: true,
      privateNamespace: false,
      containerPath: AGENT_SCOPE,
      containerInode: 4242,
      ...cgroup,
    },
    iptables: {
      backend: 'nft',
      version: '1.8.9',
      hostMarkRule: true,
      ciliumChains: true,
      markRuleVariant: 'v1.16',
      ...iptables,
    },
  };
}

export function agentPod(node: string): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: `cilium-${node.slice(3, 11).replaceAll('-', '')}`,
      namespace: CILIUM_NAMESPACE,
      uid: '0f0e0d0c-0b0a-0908-0706-050403020100',
      labels: { 'k8s-app': 'cilium' },
    },
    spec: { nodeName: node, hostNetwork: true, containers: [{ name: AGENT_CONTAINER }] },
    status: {
      phase: 'Running',
      containerStatuses: [
        {
          name: AGENT_CONTAINER,
          ready: true,
          restartCount: 0,
          containerID: `containerd://${AGENT_CONTAINER_ID}`,
        },
      ],
    },
  };
}

export function appPod(node: string, name = 'web-0'): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: 'default',
      uid: '11111111-2222-3333-4444-555555555555',
      labels: { app: 'web' },
    },
    spec: { nodeName: node, containers: [{ name: 'web' }] },
    status: { phase: 'Running', qosClass: 'BestEffort' },
  };
}

/** A cluster with three nodes, an agent on each (the first one customised), and one app pod on the first node. */
export function fixtureCluster(
  overrides: AgentOverrides = {},
  configData?: Record<string, string>,
): SimCluster {
  const cluster = new SimCluster({ name: 'fixture', now: () => FIXED_NOW });
  for (const node of NODES) {
    cluster.store.create(R.nodes, {
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name: node },
      status: {
        capacity: { cpu: '4' },
        addresses: [
          { type: 'InternalIP', address: node.slice(3, 13).replaceAll('-', '.').replace(/\.$/, '') },
        ],
      },
    });
    cluster.agents.set(node, agentState(node, node === NODES[0] ? overrides : {}));
  }
  cluster.store.create(R.pods, agentPod(NODES[0]));
  cluster.store.create(R.pods, appPod(NODES[0]));
  if (configData) {
    cluster.store.create(R.configmaps, {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'cilium-config', namespace: CILIUM_NAMESPACE },
      data: configData,
    });
  }
  return cluster;
}

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a command in the first node's agent container (or another container) and collects its output. */
export async function run(
  cluster: SimCluster,
  argv: string[],
  options: { pod?: Pod; container?: string; signal?: AbortSignal } = {},
): Promise<RunResult> {
  const pod = options.pod ?? agentPod(NODES[0]);
  const out: RunResult = { code: -1, stdout: '', stderr: '' };
  out.code = await runCommand({ cluster, pod, container: options.container ?? AGENT_CONTAINER }, argv, {
    stdout: (chunk) => {
      out.stdout += chunk.toString();
    },
    stderr: (chunk) => {
      out.stderr += chunk.toString();
    },
    signal: options.signal ?? AbortSignal.timeout(5_000),
  });
  return out;
}
