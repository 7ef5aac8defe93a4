import type { Pod } from '../objects.ts';
import type { VxlanCause } from './options.ts';

/** A planted pod, by the names a test or the HTTP API uses. */
export interface PodRef {
  namespace: string;
  name: string;
  uid: string;
  node: string;
}

export function podRef(pod: Pod): PodRef {
  return {
    namespace: pod.metadata.namespace as string,
    name: pod.metadata.name,
    uid: pod.metadata.uid as string,
    node: pod.spec.nodeName as string,
  };
}

/** Incident 1. Every Running, non-hostNetwork pod without a CEP is in exactly one list. */
export interface UnmanagedPodsPlan {
  /** What the runbook should restart: old enough, agent ready, not excluded, no budget in the way. */
  evictable: PodRef[];
  /** Unmanaged and Ready, but its PodDisruptionBudget allows no disruption: eviction answers 429. */
  blockedByBudget: PodRef[];
  /** Unmanaged because the node's agent is not ready: restarting would not help; leave alone. */
  onNotReadyAgent: PodRef[];
  /** Unmanaged but started within the 30 s grace period. */
  young: PodRef[];
  /** A static pod's mirror (annotation `kubernetes.io/config.mirror`, owned by the Node): never touched. */
  mirror: PodRef[];
  /** hostNetwork pods, which never have a CEP: never targets. */
  hostNetwork: PodRef[];
  /** The aws-node pods (also in `hostNetwork`). */
  awsNode: PodRef[];
  notReadyAgentNodes: string[];
  budget: { namespace: string; name: string };
}

/** Incident 2. */
export interface CgroupPlan {
  /** Agents whose socket-LB hooks are not on the host's cgroup root. */
  brokenNodes: string[];
  healthyNodes: string[];
  /** `cgroup-hooks-*`: per broken node, the host cgroup its hooks were left on (removed, for `cgroup-hooks-removed`). */
  hooksAt?: Record<string, string>;
}

/** Incident 4. */
export interface HostIdentityPlan {
  namespace: string;
  networkPolicy: string;
  /** The one port the policy allows (from the namespace selector), which the probes also use. */
  port: number;
  /** Not Ready, restarting, with "Readiness probe failed" events and world drops. */
  failingPods: PodRef[];
  /** The failing pods' security identity (the drops' destination). */
  identity: number;
  /** Agents that hold drops. */
  nodesWithDrops: string[];
}

/** Incident 3. */
export interface TunnelPlan {
  cause: VxlanCause;
  protocol: 'vxlan' | 'geneve';
  port: number;
  /** Node security groups missing the rules. */
  securityGroups: string[];
}

/** Scale: the generated workload. */
export interface ScalePlan {
  namespaces: string[];
  /** Workload pods (each with a CEP), on top of the system pods. */
  pods: number;
}

/** What a built cluster holds, per scenario: the evidence each runbook must find, and nothing else. */
export interface Plan {
  scenarios: string[];
  nodes: string[];
  unmanagedPods?: UnmanagedPodsPlan;
  cgroup?: CgroupPlan;
  hostIdentity?: HostIdentityPlan;
  tunnel?: TunnelPlan;
  scale?: ScalePlan;
}
