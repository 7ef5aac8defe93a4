import type { PodFacts } from '../../../src/engine/pod-facts.ts';

/** A Running pod on node-1, owned by a ReplicaSet, started at 2025-01-01T00:00:00Z. */
export function facts(overrides: Partial<PodFacts> = {}): PodFacts {
  return {
    namespace: 'shop',
    name: 'web-1',
    uid: 'u-web-1',
    node: 'node-1',
    labels: { app: 'web' },
    startedAt: '2025-01-01T00:00:00Z',
    hostNetwork: false,
    terminating: false,
    mirror: false,
    owner: { kind: 'ReplicaSet', name: 'web-5d8f', uid: 'rs-web' },
    ...overrides,
  };
}
