import { describe, expect, it } from 'vitest';
import { podsFailingProbesUnderPolicy } from '../../../runbooks/host-identity/probe-failures.ts';
import type { KubeFacade, KubeObject, ListOptions, ResourceRef } from '../../../src/cluster/types.ts';

/** Lists from fixed objects per resource plural, projected as the real facade does. */
function fakeKube(objects: Record<string, KubeObject[]>): KubeFacade {
  const unused = () => Promise.reject(new Error('not used by this test'));
  return {
    clusterName: 'fake',
    async list<T>(resource: ResourceRef, options: ListOptions<T>): Promise<T[]> {
      const items = (objects[resource.plural] ?? []).filter(
        (o) => options.namespace === undefined || o.metadata.namespace === options.namespace,
      );
      if (options.project === 'metadata') throw new Error('metadata lists are not faked');
      return items.map(options.project).filter((item) => item !== undefined);
    },
    pages: () => {
      throw new Error('not used by this test');
    },
    get: unused,
    evict: unused,
    deletePod: unused,
    exec: unused,
  };
}

function pod(
  name: string,
  options: { ready?: boolean; hostNetwork?: boolean; app?: string } = {},
): KubeObject {
  return {
    metadata: {
      name,
      namespace: 'billing',
      uid: `uid-${name}`,
      labels: { app: options.app ?? 'invoice-api' },
    },
    spec: { nodeName: 'node-a', hostNetwork: options.hostNetwork ?? false },
    status: {
      podIP: `100.64.0.${name.length}`,
      hostIP: '10.0.0.1',
      conditions: [{ type: 'Ready', status: options.ready ? 'True' : 'False' }],
    },
  };
}

function event(podName: string, message: string, about: { kind?: string; uid?: string } = {}): KubeObject {
  return {
    metadata: { name: `${podName}.1`, namespace: 'billing', uid: `ev-${podName}-${message.length}` },
    involvedObject: { kind: about.kind ?? 'Pod', name: podName, uid: about.uid ?? `uid-${podName}` },
    reason: 'Unhealthy',
    message,
  };
}

const READINESS = 'Readiness probe failed: Get "http://100.64.0.5:8080/ready": context deadline exceeded';

describe('podsFailingProbesUnderPolicy', () => {
  it('keeps not-Ready pods with probe failures that a restricting policy selects', async () => {
    const kube = fakeKube({
      pods: [
        pod('hit'),
        pod('ready', { ready: true }),
        pod('host-net', { hostNetwork: true }),
        pod('replaced'),
        pod('other-app', { app: 'ledger' }),
        pod('not-a-probe'),
        pod('liveness'),
      ],
      events: [
        event('hit', READINESS),
        event('ready', READINESS),
        event('host-net', READINESS),
        event('replaced', READINESS, { uid: 'uid-of-an-older-pod' }),
        event('other-app', READINESS),
        event('not-a-probe', 'Startup probe errored: rpc error'),
        event('liveness', 'Liveness probe failed: HTTP probe failed with statuscode: 503'),
      ],
      networkpolicies: [
        {
          metadata: { name: 'allow-from-gateway', namespace: 'billing', uid: 'np' },
          spec: {
            podSelector: { matchLabels: { app: 'invoice-api' } },
            policyTypes: ['Ingress'],
            ingress: [],
          },
        },
      ],
    });
    const found = await podsFailingProbesUnderPolicy(kube);
    expect(found.map((p) => [p.name, p.policies, p.node])).toEqual([
      ['hit', ['allow-from-gateway'], 'node-a'],
      ['liveness', ['allow-from-gateway'], 'node-a'],
    ]);
    expect(found[0]).toMatchObject({ ip: '100.64.0.3', hostIP: '10.0.0.1', lastFailure: READINESS });
  });

  it('finds nothing without a restricting policy', async () => {
    const kube = fakeKube({ pods: [pod('hit')], events: [event('hit', READINESS)] });
    expect(await podsFailingProbesUnderPolicy(kube)).toEqual([]);
  });
});
