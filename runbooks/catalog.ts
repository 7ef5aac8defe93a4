import type { RunbookInfo } from '../src/engine/types.ts';
import { cgroupRootHooksParams } from './cgroup-root-hooks/params.ts';
import { hostIdentityParams } from './host-identity/params.ts';
import { tunnelDatapathParams } from './tunnel-datapath/params.ts';
import { unmanagedPodsParams } from './unmanaged-pods/params.ts';

/**
 * The runbooks without their code: id, title, whether any step writes, and the params schema
 * (each runbook's own, from its `params.ts`, which imports zod and nothing else). Entries that
 * only admit jobs (the http, alarm and sweep functions) import this, not the registry, so their
 * bundles carry no step code and no cluster client, yet admission checks params exactly as the
 * run would. A test holds it equal to the registry.
 */
export const RUNBOOK_CATALOG = [
  {
    id: 'unmanaged-pods',
    title: 'Pods Cilium does not manage',
    writes: true,
    params: unmanagedPodsParams,
  },
  {
    id: 'cgroup-root-hooks',
    title: 'Socket-LB hooks on the wrong cgroup',
    writes: false,
    params: cgroupRootHooksParams,
  },
  {
    id: 'host-identity',
    title: 'Host traffic identified as world',
    writes: true,
    params: hostIdentityParams,
  },
  {
    id: 'tunnel-datapath',
    title: 'Cross-node traffic dropped in the tunnel',
    writes: false,
    params: tunnelDatapathParams,
  },
] as const satisfies readonly RunbookInfo[];

/** The runbook ids, in the order `run all` runs them: what routing and config checks need. */
export const RUNBOOK_IDS = RUNBOOK_CATALOG.map((runbook) => runbook.id);
