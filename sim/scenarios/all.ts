import type { Scenario } from './scenario.ts';

/**
 * The four incidents on one cluster. Their evidence stays independent: each lives in its own
 * namespaces or per-agent facts, and only the first two nodes' agents have the cgroup fault, so
 * the cgroup runbook sees a mix while the unmanaged-pods runbook's not-ready node stays healthy
 * in every other respect.
 */
export const all: Scenario = {
  description: 'All four incidents at once, each with independent evidence.',
  presets: { brokenCgroupNodes: 2 },
  composes: ['unmanaged-pods', 'cgroup-private-ns', 'host-identity-world', 'vxlan-blocked'],
};
