import type { Scenario } from './scenario.ts';

/**
 * The four incidents on one cluster, with independent evidence: each lives in its own namespaces
 * or per-agent facts; only the first node's agent has the cgroup fault (so the cgroup runbook
 * sees a mix), and the unmanaged pods and the not-ready agent sit on other nodes.
 */
export const all: Scenario = {
  description: 'All four incidents at once, each with independent evidence.',
  presets: { brokenCgroupNodes: 1 },
  composes: ['unmanaged-pods', 'cgroup-private-ns', 'host-identity-world', 'vxlan-blocked'],
};
