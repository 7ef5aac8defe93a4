import type { Runbook } from '../../src/engine/types.ts';
import { type UnmanagedPodsParams, unmanagedPodsParams } from './params.ts';
import { newState, type UnmanagedPodsState } from './state.ts';
import { findUnmanaged } from './steps/find-unmanaged.ts';
import { operatorWatcher } from './steps/operator-watcher.ts';
import { restartUnmanaged } from './steps/restart-unmanaged.ts';
import { verifyReplacements } from './steps/verify-replacements.ts';

export type { UnmanagedPodsParams } from './params.ts';

/** Domain incident 1: pods scheduled before their node's Cilium agent was ready never get an endpoint. */
export const unmanagedPods: Runbook<UnmanagedPodsParams, UnmanagedPodsState> = {
  id: 'unmanaged-pods',
  title: 'Pods Cilium does not manage',
  summary:
    'Finds Running pods without a CiliumEndpoint, restarts the ones a restart fixes (Eviction API, within caps, never aws-node), and checks that each replacement is managed.',
  doc: 'runbooks/unmanaged-pods/README.md',
  params: unmanagedPodsParams,
  answers: ['CiliumUnmanagedPods', 'CiliumEndpointMissing'],
  newState,
  steps: [operatorWatcher, findUnmanaged, restartUnmanaged, verifyReplacements],
};
