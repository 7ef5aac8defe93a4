import { ApiException, CoreV1Api, type V1Pod } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { R, SimCluster } from '../../../sim/cluster.ts';
import { type Sim, startSim } from '../../../sim/index.ts';
import type { Pod } from '../../../sim/objects.ts';
import { kubeConfigFor, rawRequest } from '../harness.ts';

/** The Status body of a failed client-node call. */
async function failure(call: Promise<unknown>): Promise<{ code: number; status: Record<string, unknown> }> {
  try {
    await call;
  } catch (error) {
    if (!(error instanceof ApiException)) throw error;
    const body = typeof error.body === 'string' ? JSON.parse(error.body) : error.body;
    return { code: error.code, status: body as Record<string, unknown> };
  }
  throw new Error('expected the call to fail');
}

function pod(
  namespace: string,
  name: string,
  extra: Partial<Pod['spec']> = {},
  labels: Record<string, string> = {},
): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace, labels },
    spec: {
      containers: [{ name: 'app', image: 'nginx' }],
      nodeName: 'node-a',
      restartPolicy: 'Always',
      schedulerName: 'default-scheduler',
      serviceAccountName: 'default',
      ...extra,
    },
    status: { phase: 'Running', podIP: '10.0.0.1' },
  };
}

function seed(cluster: SimCluster): void {
  for (const ns of ['default', 'kube-system', 'shop']) {
    cluster.store.create(R.namespaces, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
  }
  const store = cluster.store;
  store.create(R.pods, pod('shop', 'web-1', {}, { app: 'web', tier: 'front' }));
  store.create(R.pods, pod('shop', 'web-2', { nodeName: 'node-b' }, { app: 'web', tier: 'back' }));
  store.create(R.pods, pod('shop', 'db-1', { hostNetwork: true, serviceAccountName: 'db' }, { app: 'db' }));
  store.create(R.pods, {
    ...pod('shop', 'job-1', { restartPolicy: 'Never', schedulerName: 'batch' }, { app: 'job' }),
    status: { phase: 'Succeeded', podIP: '10.0.0.9', nominatedNodeName: 'node-c' },
  });
  store.create(R.pods, pod('shop', 'plain'));
}

describe('simulated kube-apiserver through @kubernetes/client-node', () => {
  let sim: Sim;
  let core: CoreV1Api;

  beforeAll(async () => {
    const cluster = new SimCluster();
    seed(cluster);
    sim = await startSim({ cluster, controllers: false });
    core = kubeConfigFor(sim).makeApiClient(CoreV1Api);
  });
  afterAll(() => sim.close());

  const names = (pods: { items: V1Pod[] }) => pods.items.map((p) => p.metadata?.name).sort();

  describe('label selectors', () => {
    it.each([
      ['app=web', ['web-1', 'web-2']],
      ['app==web', ['web-1', 'web-2']],
      ['app!=web', ['db-1', 'job-1', 'plain']],
      ['app in (web, db)', ['db-1', 'web-1', 'web-2']],
      ['app notin (web,db)', ['job-1', 'plain']],
      ['tier', ['web-1', 'web-2']],
      ['!tier', ['db-1', 'job-1', 'plain']],
      ['app=web,tier=back', ['web-2']],
    ])('%s', async (labelSelector, expected) => {
      expect(names(await core.listNamespacedPod({ namespace: 'shop', labelSelector }))).toEqual(expected);
    });

    it('rejects a malformed selector with a 400', async () => {
      const { code, status } = await failure(
        core.listNamespacedPod({ namespace: 'shop', labelSelector: 'app in (web' }),
      );
      expect(code).toBe(400);
      expect(status.reason).toBe('BadRequest');
    });
  });

  describe('pod field selectors', () => {
    it.each([
      ['metadata.name=web-1', ['web-1']],
      ['metadata.namespace=shop', ['db-1', 'job-1', 'plain', 'web-1', 'web-2']],
      ['spec.nodeName=node-b', ['web-2']],
      ['spec.restartPolicy=Never', ['job-1']],
      ['spec.schedulerName=batch', ['job-1']],
      ['spec.serviceAccountName=db', ['db-1']],
      ['spec.hostNetwork=true', ['db-1']],
      ['spec.hostNetwork!=true', ['job-1', 'plain', 'web-1', 'web-2']],
      ['status.phase=Running,spec.nodeName!=node-b', ['db-1', 'plain', 'web-1']],
      ['status.podIP=10.0.0.9', ['job-1']],
      ['status.nominatedNodeName=node-c', ['job-1']],
    ])('%s', async (fieldSelector, expected) => {
      expect(names(await core.listNamespacedPod({ namespace: 'shop', fieldSelector }))).toEqual(expected);
    });

    it('answers any other field label with 400 "field label not supported"', async () => {
      const { code, status } = await failure(
        core.listNamespacedPod({ namespace: 'shop', fieldSelector: 'spec.priority=1' }),
      );
      expect(code).toBe(400);
      expect(status.message).toContain('field label not supported: spec.priority');
    });
  });

  it('answers metadata-only lists with PartialObjectMetadataList', async () => {
    const res = await rawRequest(sim, '/api/v1/namespaces/shop/pods?limit=2', {
      accept: 'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1',
    });
    const body = res.json<{
      kind: string;
      apiVersion: string;
      metadata: { continue?: string };
      items: Record<string, unknown>[];
    }>();
    expect(body.kind).toBe('PartialObjectMetadataList');
    expect(body.apiVersion).toBe('meta.k8s.io/v1');
    expect(body.items).toHaveLength(2);
    expect(body.metadata.continue).toBeTruthy();
    for (const item of body.items) {
      expect(Object.keys(item).sort()).toEqual(['apiVersion', 'kind', 'metadata']);
      expect(item.kind).toBe('PartialObjectMetadata');
    }
  });

  describe('errors as Status objects', () => {
    it('404 NotFound for a missing pod', async () => {
      const { code, status } = await failure(core.readNamespacedPod({ namespace: 'shop', name: 'nope' }));
      expect(code).toBe(404);
      expect(status).toMatchObject({
        kind: 'Status',
        status: 'Failure',
        reason: 'NotFound',
        message: 'pods "nope" not found',
        details: { name: 'nope', kind: 'pods' },
      });
    });

    it('409 Conflict for a delete whose uid precondition does not match, and nothing is deleted', async () => {
      const { code, status } = await failure(
        core.deleteNamespacedPod({
          namespace: 'shop',
          name: 'plain',
          body: { preconditions: { uid: 'not-the-uid' } },
        }),
      );
      expect(code).toBe(409);
      expect(status.reason).toBe('Conflict');
      expect(status.message).toMatch(
        /^Operation cannot be fulfilled on Pod "plain": the UID in the precondition \(not-the-uid\) does not match/,
      );
      expect((await core.readNamespacedPod({ namespace: 'shop', name: 'plain' })).metadata?.name).toBe(
        'plain',
      );
    });

    it('409 Conflict for an eviction whose uid precondition does not match', async () => {
      const { code, status } = await failure(
        core.createNamespacedPodEviction({
          namespace: 'shop',
          name: 'web-1',
          body: {
            apiVersion: 'policy/v1',
            kind: 'Eviction',
            metadata: { name: 'web-1', namespace: 'shop' },
            deleteOptions: { preconditions: { uid: 'stale' } },
          },
        }),
      );
      expect(code).toBe(409);
      expect(status.reason).toBe('Conflict');
    });

    it('a rule with resourceNames allows only the objects it names, and no list', async () => {
      for (const name of ['cilium-config', 'aws-auth'])
        await core.createNamespacedConfigMap({
          namespace: 'kube-system',
          body: { metadata: { name }, data: { key: 'value' } },
        });
      const reader = sim.issueToken('config-reader', [
        {
          verbs: ['get'],
          resources: ['configmaps'],
          resourceNames: ['cilium-config'],
          namespaces: ['kube-system'],
        },
      ]);
      const limited = kubeConfigFor(sim, reader.token).makeApiClient(CoreV1Api);
      const config = await limited.readNamespacedConfigMap({
        namespace: 'kube-system',
        name: 'cilium-config',
      });
      expect(config.data).toEqual({ key: 'value' });
      const other = await failure(
        limited.readNamespacedConfigMap({ namespace: 'kube-system', name: 'aws-auth' }),
      );
      expect(other.status.message).toBe(
        'configmaps "aws-auth" is forbidden: User "config-reader" cannot get resource "configmaps" in API group "" in the namespace "kube-system"',
      );
      expect((await failure(limited.listNamespacedConfigMap({ namespace: 'kube-system' }))).code).toBe(403);
    });

    it('403 Forbidden with the RBAC message for a token without the permission', async () => {
      const viewer = sim.issueToken('viewer', [
        { verbs: ['get'], resources: ['pods'], namespaces: ['shop'] },
      ]);
      const limited = kubeConfigFor(sim, viewer.token).makeApiClient(CoreV1Api);
      expect((await limited.readNamespacedPod({ namespace: 'shop', name: 'web-1' })).metadata?.name).toBe(
        'web-1',
      );
      const { code, status } = await failure(limited.listPodForAllNamespaces());
      expect(code).toBe(403);
      expect(status).toMatchObject({
        reason: 'Forbidden',
        message:
          'pods is forbidden: User "viewer" cannot list resource "pods" in API group "" at the cluster scope',
      });
      const evict = await failure(
        limited.createNamespacedPodEviction({
          namespace: 'shop',
          name: 'web-1',
          body: { metadata: { name: 'web-1' } },
        }),
      );
      expect(evict.status.message).toBe(
        'pods "web-1" is forbidden: User "viewer" cannot create resource "pods/eviction" in API group "" in the namespace "shop"',
      );
    });

    it('401 for an unknown token', async () => {
      const res = await rawRequest(sim, '/api/v1/pods', { token: 'wrong' });
      expect(res.status).toBe(401);
      expect(res.json().reason).toBe('Unauthorized');
    });

    it('500 and 429 with Retry-After when fault injection asks, then recovers', async () => {
      sim.faults.set('get', { errorRate: 1 });
      expect((await failure(core.readNamespacedPod({ namespace: 'shop', name: 'web-1' }))).code).toBe(500);
      sim.faults.set('get', { errorRate: 1, errorCode: 429, retryAfterSeconds: 7 });
      const res = await rawRequest(sim, '/api/v1/namespaces/shop/pods/web-1');
      expect(res.status).toBe(429);
      expect(res.headers['retry-after']).toBe('7');
      expect(res.json()).toMatchObject({ reason: 'TooManyRequests', details: { retryAfterSeconds: 7 } });
      sim.faults.clear('get');
      expect((await core.readNamespacedPod({ namespace: 'shop', name: 'web-1' })).metadata?.name).toBe(
        'web-1',
      );
    });

    it('adds injected latency to one kind of request only', async () => {
      sim.faults.set('list', { latencyMs: 300 });
      const started = performance.now();
      await core.readNamespacedPod({ namespace: 'shop', name: 'web-1' });
      const getTook = performance.now() - started;
      const listStarted = performance.now();
      await core.listNamespacedPod({ namespace: 'shop' });
      const listTook = performance.now() - listStarted;
      sim.faults.clear();
      expect(listTook).toBeGreaterThanOrEqual(300);
      expect(getTook).toBeLessThan(300);
    });
  });
});

describe('paging a large cluster through client-node', () => {
  it('returns each of 10,500 pods exactly once while pods come and go between pages', async () => {
    const cluster = new SimCluster();
    cluster.store.create(R.namespaces, {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'default' },
    });
    for (let i = 0; i < 10_500; i++) cluster.store.create(R.pods, pod(`ns-${i % 13}`, `pod-${i}`));
    const sim = await startSim({ cluster, controllers: false });
    try {
      const core = kubeConfigFor(sim).makeApiClient(CoreV1Api);
      const seen: string[] = [];
      let token: string | undefined;
      let pages = 0;
      do {
        const page = await core.listPodForAllNamespaces({
          limit: 500,
          ...(token ? { _continue: token } : {}),
        });
        seen.push(...page.items.map((p) => `${p.metadata?.namespace}/${p.metadata?.name}`));
        token = page.metadata?._continue;
        expect(page.metadata?.remainingItemCount ?? 0).toBe(10_500 - seen.length);
        cluster.store.delete(R.pods, `ns-${pages % 13}`, `pod-${pages * 13 + (pages % 13)}`);
        cluster.store.create(R.pods, pod('ns-0', `new-${pages}`));
        pages++;
      } while (token);
      expect(pages).toBe(21);
      expect(seen).toHaveLength(10_500);
      expect(new Set(seen).size).toBe(10_500);
    } finally {
      await sim.close();
    }
  });
});
