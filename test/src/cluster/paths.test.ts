import { describe, expect, it } from 'vitest';
import { resourcePath } from '../../../src/cluster/paths.ts';
import { RESOURCES } from '../../../src/cluster/types.ts';

describe('resourcePath', () => {
  it('puts the core group under /api and the others under /apis', () => {
    expect(resourcePath(RESOURCES.pods, { namespace: 'shop' })).toBe('/api/v1/namespaces/shop/pods');
    expect(resourcePath(RESOURCES.ciliumendpoints, { namespace: 'shop', name: 'web-1' })).toBe(
      '/apis/cilium.io/v2/namespaces/shop/ciliumendpoints/web-1',
    );
  });

  it('lists a namespaced resource across namespaces without a namespace', () => {
    expect(resourcePath(RESOURCES.pods)).toBe('/api/v1/pods');
  });

  it('ignores a namespace for cluster-scoped resources', () => {
    expect(resourcePath(RESOURCES.nodes, { namespace: 'shop', name: 'n1' })).toBe('/api/v1/nodes/n1');
  });

  it('adds the subresource and encodes names and query values', () => {
    expect(
      resourcePath(RESOURCES.pods, {
        namespace: 'kube-system',
        name: 'a b',
        subresource: 'eviction',
        query: { dryRun: 'All', unset: undefined },
      }),
    ).toBe('/api/v1/namespaces/kube-system/pods/a%20b/eviction?dryRun=All');
    expect(resourcePath(RESOURCES.pods, { query: { labelSelector: 'app in (a,b),!canary' } })).toBe(
      '/api/v1/pods?labelSelector=app+in+%28a%2Cb%29%2C%21canary',
    );
  });
});
