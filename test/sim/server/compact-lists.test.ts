import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { R, type SimCluster } from '../../../sim/cluster.ts';
import { CompactRead } from '../../../sim/compact.ts';
import { type Sim, startSim } from '../../../sim/index.ts';
import type { KubeObject, Pod } from '../../../sim/objects.ts';
import type { ResourceType } from '../../../sim/resources.ts';
import { buildCluster } from '../../../sim/scenarios/index.ts';
import { rawRequest } from '../harness.ts';

/**
 * A list serves generated pods and CiliumEndpoints from their compact rows without building them
 * (sim/compact.ts); what it serves must be byte for byte what the built object gives.
 */

const PARTIAL = 'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json';

interface ListBody {
  metadata: { continue?: string; resourceVersion: string };
  items: Record<string, unknown>[];
}

async function pageOf(sim: Sim, path: string, accept?: string): Promise<ListBody> {
  const response = await rawRequest(sim, path, accept ? { accept } : {});
  expect(response.status, response.text).toBe(200);
  return response.json<ListBody>();
}

/** Every item of a list, paged `limit` at a time; JSON.parse keeps the served key order. */
async function readAll(
  sim: Sim,
  path: string,
  accept?: string,
  limit = 250,
): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let token: string | undefined;
  do {
    const separator = path.includes('?') ? '&' : '?';
    const query = `limit=${limit}${token ? `&continue=${encodeURIComponent(token)}` : ''}`;
    const page = await pageOf(sim, `${path}${separator}${query}`, accept);
    items.push(...page.items);
    token = page.metadata.continue;
  } while (token);
  return items;
}

function stored(cluster: SimCluster, type: ResourceType, item: Record<string, unknown>): KubeObject {
  const { namespace, name } = item.metadata as { namespace: string; name: string };
  const object = cluster.store.get(type, namespace, name);
  if (!object) throw new Error(`${type.plural} ${namespace}/${name} is not in the store`);
  return object;
}

const withoutTypeMeta = ({ kind: _k, apiVersion: _a, ...rest }: KubeObject) => rest;

describe.each([
  ['every scenario', () => buildCluster(['all'])],
  ['a scale cluster', () => buildCluster(['scale', 'unmanaged-pods'], { nodes: 12, podsPerNode: 30 })],
])('compact rows served in lists: %s', (_name, build) => {
  let cluster: SimCluster;
  let sim: Sim;

  beforeAll(async () => {
    cluster = build();
    sim = await startSim({ cluster, controllers: false });
  });
  afterAll(() => sim.close());

  it('serves each pod with the bytes of the pod built from its row', async () => {
    const items = await readAll(sim, '/api/v1/pods');
    expect(items.length).toBe(cluster.store.count(R.pods));
    for (const item of items) {
      expect(JSON.stringify(item)).toBe(JSON.stringify(withoutTypeMeta(stored(cluster, R.pods, item))));
    }
  });

  it('serves each CiliumEndpoint, whole and as metadata, with the bytes of the built object', async () => {
    const whole = await readAll(sim, '/apis/cilium.io/v2/ciliumendpoints');
    const metadata = await readAll(sim, '/apis/cilium.io/v2/ciliumendpoints', PARTIAL);
    expect(whole.length).toBe(cluster.store.count(R.ciliumendpoints));
    expect(metadata.length).toBe(whole.length);
    for (const [i, item] of whole.entries()) {
      const object = stored(cluster, R.ciliumendpoints, item);
      expect(JSON.stringify(item)).toBe(JSON.stringify(object));
      expect(JSON.stringify(metadata[i])).toBe(
        JSON.stringify({
          kind: 'PartialObjectMetadata',
          apiVersion: 'meta.k8s.io/v1',
          metadata: object.metadata,
        }),
      );
    }
  });

  it('selects compact pods by node and phase as the built pods would be selected', async () => {
    const all = cluster.store.list(R.pods).items as Pod[];
    const node = all.find((pod) => pod.spec.hostNetwork !== true)?.spec.nodeName as string;
    const onNode = await readAll(
      sim,
      `/api/v1/pods?fieldSelector=${encodeURIComponent(`spec.nodeName=${node},status.phase=Running`)}`,
      undefined,
      7,
    );
    const expected = all.filter((pod) => pod.spec.nodeName === node && pod.status?.phase === 'Running');
    expect(onNode.map((pod) => (pod.metadata as { name: string }).name)).toEqual(
      expected.map((pod) => pod.metadata.name),
    );
    expect(onNode.length).toBeGreaterThan(0);
    const notRunning = await readAll(sim, '/api/v1/pods?fieldSelector=status.phase%21%3DRunning');
    expect(notRunning.length).toBe(all.filter((pod) => pod.status?.phase !== 'Running').length);
  });
});

describe('a write over a compact row', () => {
  let cluster: SimCluster;
  let sim: Sim;

  beforeAll(async () => {
    cluster = buildCluster(['scale'], { nodes: 4, podsPerNode: 30 });
    sim = await startSim({ cluster, controllers: false });
  });
  afterAll(() => sim.close());

  it('shows on the next list, while a continued list keeps its snapshot', async () => {
    const first = await pageOf(sim, '/api/v1/pods?limit=5');
    const later = (await readAll(sim, '/api/v1/pods')).slice(60, 62) as {
      metadata: { namespace: string; name: string };
    }[];
    const [target, neighbour] = later.map((item) => item.metadata) as { namespace: string; name: string }[];
    if (!target || !neighbour) throw new Error('the cluster has too few pods');
    const before = stored(cluster, R.pods, { metadata: target });

    const patched = await rawRequest(sim, `/api/v1/namespaces/${target.namespace}/pods/${target.name}`, {
      method: 'PATCH',
      contentType: 'application/merge-patch+json',
      body: JSON.stringify({ metadata: { labels: { drained: 'yes' } } }),
    });
    expect(patched.status, patched.text).toBe(200);
    const after = stored(cluster, R.pods, { metadata: target });
    expect(after.metadata.resourceVersion).not.toBe(before.metadata.resourceVersion);

    const fresh = await readAll(sim, '/api/v1/pods');
    const served = fresh.find((item) => (item.metadata as { name: string }).name === target.name);
    expect(JSON.stringify(served)).toBe(JSON.stringify(withoutTypeMeta(after)));
    const selected = await readAll(sim, '/api/v1/pods?labelSelector=drained%3Dyes');
    expect(selected.map((item) => (item.metadata as { name: string }).name)).toEqual([target.name]);
    const beside = fresh.find((item) => (item.metadata as { name: string }).name === neighbour.name);
    expect(JSON.stringify(beside)).toBe(
      JSON.stringify(withoutTypeMeta(stored(cluster, R.pods, { metadata: neighbour }))),
    );

    const continued: Record<string, unknown>[] = [...first.items];
    let token = first.metadata.continue;
    while (token) {
      const page = await pageOf(sim, `/api/v1/pods?limit=50&continue=${encodeURIComponent(token)}`);
      continued.push(...page.items);
      token = page.metadata.continue;
    }
    const snapshot = continued.find((item) => (item.metadata as { name: string }).name === target.name);
    expect(JSON.stringify(snapshot)).toBe(JSON.stringify(withoutTypeMeta(before)));
  });
});

describe('DaemonSet pods in compact rows', () => {
  it("are listed from their DaemonSet's one template, each pinned to its own node", () => {
    const cluster = buildCluster(['scale'], { nodes: 40, podsPerNode: 1 });
    const reads = cluster.store.listReads(R.pods, { namespace: 'kube-system' }).items;
    const agents = reads.filter((read) => read.derived(isAgent));
    expect(agents.length).toBe(40);
    for (const read of agents) {
      // Spliced from the template, not built: a 100,000-node list built 300,000 of them.
      expect(read).toBeInstanceOf(CompactRead);
      const pod = read.object() as Pod;
      const affinity = pod.spec.affinity as {
        nodeAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: {
            nodeSelectorTerms: { matchFields: { values: string[] }[] }[];
          };
        };
      };
      const pinned =
        affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0]
          ?.matchFields[0]?.values;
      expect(pinned).toEqual([pod.spec.nodeName]);
    }
    expect(new Set(agents.map((read) => (read.object() as Pod).spec.nodeName)).size).toBe(40);
  });
});

const isAgent = (pod: KubeObject) => pod.metadata.labels?.['k8s-app'] === 'cilium';
