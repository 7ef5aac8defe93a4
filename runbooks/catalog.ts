/**
 * The runbook ids, without the runbooks: what routing and config checks need. Entries that only
 * admit jobs (the http, alarm and sweep functions) import this, not the registry, so their
 * bundles carry no runbook code. A test holds it equal to the registry.
 */
export const RUNBOOK_IDS = [
  'unmanaged-pods',
  'cgroup-root-hooks',
  'host-identity',
  'tunnel-datapath',
] as const;
