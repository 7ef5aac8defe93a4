import type { RunbookInfo } from '../src/engine/types.ts';

/**
 * The runbooks without their code: id, title, and whether any step writes. Entries that only
 * admit jobs (the http, alarm and sweep functions) import this, not the registry, so their
 * bundles carry no runbook code. A test holds it equal to the registry.
 */
export const RUNBOOK_CATALOG = [
  { id: 'unmanaged-pods', title: 'Pods Cilium does not manage', writes: true },
  { id: 'cgroup-root-hooks', title: 'Socket-LB hooks on the wrong cgroup', writes: false },
  { id: 'host-identity', title: 'Host traffic identified as world', writes: true },
  { id: 'tunnel-datapath', title: 'Cross-node traffic dropped in the tunnel', writes: false },
] as const satisfies readonly RunbookInfo[];

/** The runbook ids, in the order `run all` runs them: what routing and config checks need. */
export const RUNBOOK_IDS = RUNBOOK_CATALOG.map((runbook) => runbook.id);
