import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../src/cluster/types.ts';
import { ageSeconds, podFacts } from '../../../src/engine/pod-facts.ts';

const NODE_OWNER = { apiVersion: 'v1', kind: 'Node', name: 'node-1', uid: 'n1', controller: true };
const RS_OWNER = {
  apiVersion: 'apps/v1',
  kind: 'ReplicaSet',
  name: 'web-5d8f',
  uid: 'rs1',
  controller: true,
};

function pod(
  overrides: {
    metadata?: Partial<KubeObject['metadata']> & { deletionTimestamp?: string };
    [key: string]: unknown;
  } = {},
): KubeObject {
  const { metadata, ...rest } = overrides;
  return {
    metadata: {
      name: 'web-1',
      namespace: 'shop',
      uid: 'u1',
      creationTimestamp: '2025-01-01T00:00:00Z',
      ...metadata,
    },
    spec: { nodeName: 'node-1' },
    status: { phase: 'Running', startTime: '2025-01-01T00:00:05Z' },
    ...rest,
  };
}

describe('podFacts', () => {
  it('keeps what the runbook needs, with the controller as owner', () => {
    const facts = podFacts(pod({ metadata: { labels: { app: 'web' }, ownerReferences: [RS_OWNER] } }));
    expect(facts).toEqual({
      namespace: 'shop',
      name: 'web-1',
      uid: 'u1',
      node: 'node-1',
      labels: { app: 'web' },
      startedAt: '2025-01-01T00:00:05Z',
      hostNetwork: false,
      terminating: false,
      mirror: false,
      owner: { kind: 'ReplicaSet', name: 'web-5d8f', uid: 'rs1' },
    });
  });

  it('recognises a mirror pod by its annotation or by its Node owner', () => {
    expect(
      podFacts(pod({ metadata: { annotations: { 'kubernetes.io/config.mirror': 'abc' } } })).mirror,
    ).toBe(true);
    expect(podFacts(pod({ metadata: { ownerReferences: [NODE_OWNER] } })).mirror).toBe(true);
  });

  it('sees hostNetwork and a pod on its way out', () => {
    const facts = podFacts(
      pod({
        spec: { nodeName: 'node-1', hostNetwork: true },
        metadata: { deletionTimestamp: '2025-01-02T00:00:00Z' },
      }),
    );
    expect(facts).toMatchObject({ hostNetwork: true, terminating: true });
  });

  it('measures age from the start time, else from creation', () => {
    const now = new Date('2025-01-01T00:01:05Z');
    expect(ageSeconds(podFacts(pod()), now)).toBe(60);
    expect(ageSeconds(podFacts(pod({ status: { phase: 'Running' } })), now)).toBe(65);
    expect(
      ageSeconds(podFacts(pod({ metadata: { creationTimestamp: undefined }, status: {} })), now),
    ).toBeUndefined();
  });
});
