import type { AgentPod, StepContext } from '../../sdk/index.ts';
import type { HostMarkState } from './host-mark.ts';
import type { DroppedProbes } from './probes-recovered.ts';

export interface MissingRule {
  agent: AgentPod;
  state: Exclude<HostMarkState, 'present'>;
}

/** What the steps of one run learn and pass on. */
export interface HostIdentityFacts {
  /** cilium-config `install-iptables-rules` (unset means true). */
  installRules: boolean;
  /** Agents without an effective host mark rule, by node name. */
  missing: MissingRule[];
  /** Agents restarted in this run: node → the deleted pod's uid. */
  restarted: Map<string, string>;
  /** Agent restarts whose answer was lost (they may have happened): node → the pod's uid. */
  unconfirmed: Map<string, string>;
  /** Pods whose probes their own node's traffic cannot pass, on nodes without the rule. */
  droppedProbes: DroppedProbes[];
}

/** A run's facts before its first step. */
export function newFacts(): HostIdentityFacts {
  return { installRules: true, missing: [], restarted: new Map(), unconfirmed: new Map(), droppedProbes: [] };
}

/** The run's facts. */
export function facts(ctx: StepContext<unknown, HostIdentityFacts>): HostIdentityFacts {
  return ctx.state;
}
