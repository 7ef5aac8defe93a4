import type { AnyRunbook } from '../src/engine/types.ts';
import { cgroupRootHooks } from './cgroup-root-hooks/index.ts';
import { hostIdentity } from './host-identity/index.ts';
import { tunnelDatapath } from './tunnel-datapath/index.ts';
import { unmanagedPods } from './unmanaged-pods/index.ts';

/** Every runbook, in the order `responder run all` runs them. */
export const RUNBOOKS: readonly AnyRunbook[] = [unmanagedPods, cgroupRootHooks, hostIdentity, tunnelDatapath];
