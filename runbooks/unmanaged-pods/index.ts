import { defineRunbook } from '../../sdk/index.ts';
import { unmanagedPodsParams } from './params.ts';
import { newState } from './state.ts';
import { findUnmanaged } from './steps/find-unmanaged.ts';
import { operatorWatcher } from './steps/operator-watcher.ts';
import { restartUnmanaged } from './steps/restart-unmanaged.ts';
import { verifyReplacements } from './steps/verify-replacements.ts';

export type { UnmanagedPodsParams } from './params.ts';

/** Domain incident 1: pods scheduled before their node's Cilium agent was ready never get an endpoint. */
export const unmanagedPods = defineRunbook({
  id: 'unmanaged-pods',
  title: 'Pods Cilium does not manage',
  summary:
    'Finds Running pods without a CiliumEndpoint, restarts the ones a restart fixes (Eviction API, within caps, never aws-node), and checks that each replacement is managed.',
  params: unmanagedPodsParams,
  answers: ['CiliumUnmanagedPods', 'CiliumEndpointMissing'],
  state: newState,
  steps: [operatorWatcher, findUnmanaged, restartUnmanaged, verifyReplacements],
});
