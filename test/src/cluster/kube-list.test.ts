import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { R } from '../../../sim/cluster.ts';
import { type Sim, startSim } from '../../../sim/index.ts';
import { planOf } from '../../../sim/scenarios/index.ts';
import type { ScalePlan } from '../../../sim/scenarios/plan.ts';
import { type ClusterAccess, type KubeObject, RESOURCES } from '../../../src/cluster/types.ts';
import { accessTo, countRequests, kubeErrorOf } from './fixtures.ts';

const NODES = 100;
const PODS_PER_NODE = 30;

describe('KubeFacade.list over a scale cluster', () => {
  let sim: Sim;
  let access: ClusterAccess;
  let scale: ScalePlan;
  let allPods: number;

  beforeAll(async () => {
    sim = await startSim({
      scenarios: ['scale'],
      scenario: { nodes: NODES, podsPerNode: PODS_PER_NODE },
      controllers: false,
    });
    access = accessTo(sim);
    scale = planOf(sim.cluster)?.scale as ScalePlan;
    allPods = sim.cluster.store.count(R.pods);
  });
  afterAll(() => sim.close());
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('pages through every pod once, keeping only the projection', async () => {
    const requests = countRequests(sim);
    const keys = await access.kube.list(RESOURCES.pods, {
      pageSize: 400,
      project: (pod) => `${pod.metadata.namespace}/${pod.metadata.name}`,
    });
    expect(scale.pods).toBe(NODES * PODS_PER_NODE);
    expect(keys.length).toBe(allPods);
    expect(new Set(keys).size).toBe(allPods);
    expect(keys.every((key) => typeof key === 'string')).toBe(true);
    expect(requests()).toBe(Math.ceil(allPods / 400));
  });

  it('applies the projection as each page arrives', async () => {
    const pagesSeen: number[] = [];
    const requests = countRequests(sim);
    await access.kube.list(RESOURCES.pods, {
      pageSize: 1000,
      project: () => pagesSeen.push(requests()),
    });
    // Items of page n are projected before page n+1 is requested.
    expect(pagesSeen[0]).toBe(1);
    expect(pagesSeen[1000]).toBe(2);
    expect(pagesSeen.at(-1)).toBe(Math.ceil(allPods / 1000));
  });

  it('passes label and field selectors to every page', async () => {
    const team = scale.namespaces[0] as string;
    const byLabel = await access.kube.list(RESOURCES.pods, {
      namespace: team,
      labelSelector: 'app=svc-0001',
      pageSize: 7,
      project: (pod) => pod.metadata.labels?.app,
    });
    expect(byLabel).toEqual(Array(PODS_PER_NODE).fill('svc-0001'));

    const node = planOf(sim.cluster)?.nodes[3] as string;
    const onNode = await access.kube.list(RESOURCES.pods, {
      fieldSelector: `spec.nodeName=${node}`,
      pageSize: 10,
      project: (pod) => (pod as KubeObject & { spec: { nodeName: string } }).spec.nodeName,
    });
    expect(onNode.length).toBeGreaterThanOrEqual(PODS_PER_NODE);
    expect(new Set(onNode)).toEqual(new Set([node]));
  });

  it('asks for metadata only when told to', async () => {
    const items = await access.kube.list<KubeObject>(RESOURCES.pods, { project: 'metadata', pageSize: 1000 });
    expect(items.length).toBe(allPods);
    const first = items[0] as KubeObject;
    expect(first.kind).toBe('PartialObjectMetadata');
    expect(first.apiVersion).toBe('meta.k8s.io/v1');
    expect(first.metadata.uid).toMatch(/^[0-9a-f-]{36}$/);
    expect(first).not.toHaveProperty('spec');
    expect(first).not.toHaveProperty('status');
  });

  it('hands a projection metadata only when asked, keeping just what it returns', async () => {
    const kinds = new Set<string | undefined>();
    const uids = await access.kube.list(RESOURCES.pods, {
      metadataOnly: true,
      pageSize: 1000,
      project: (pod) => {
        kinds.add(pod.kind);
        expect(pod).not.toHaveProperty('spec');
        return pod.metadata.uid;
      },
    });
    expect(uids.length).toBe(allPods);
    expect([...kinds]).toEqual(['PartialObjectMetadata']);
  });

  it('starts over once when the continue token expires mid-list', async () => {
    let compactions = 0;
    const names = await access.kube.list(RESOURCES.pods, {
      pageSize: 500,
      project: (pod) => {
        if (compactions === 0) {
          compactions++;
          expireSnapshot(sim);
        }
        return pod.metadata.name;
      },
    });
    expect(compactions).toBe(1);
    expect(names.length).toBe(allPods + 1);
    expect(new Set(names).size).toBe(allPods + 1);
  });

  it('gives up when the restarted list expires too', async () => {
    let firstItems = 0;
    const error = await kubeErrorOf(
      access.kube.list(RESOURCES.pods, {
        pageSize: 500,
        project: (pod) => {
          // The first item of each attempt's first page: expire that attempt's snapshot.
          if (pod.metadata.name === firstPodName(sim)) {
            firstItems++;
            expireSnapshot(sim);
          }
          return pod.metadata.name;
        },
      }),
    );
    expect(firstItems).toBe(2);
    expect(error.status).toBe(410);
    expect(error.kind).toBe('conflict');
    expect(error.message).toMatch(/^conflict: list pods/);
  });

  it('pages: one page a request, asked only as the reader takes it, in key order', async () => {
    const pods = sim.cluster.store.count(R.pods);
    const requests = countRequests(sim);
    const keys: string[] = [];
    const asked: number[] = [];
    for await (const page of access.kube.pages(RESOURCES.pods, {
      pageSize: 400,
      project: (pod) => `${pod.metadata.namespace}/${pod.metadata.name}`,
    })) {
      asked.push(requests());
      keys.push(...page);
    }
    expect(asked).toEqual(Array.from({ length: Math.ceil(pods / 400) }, (_, i) => i + 1));
    expect(keys.length).toBe(pods);
    // The order the unmanaged-pods scan joins pods and endpoints on: kube-apiserver's etcd key order.
    expect(keys).toEqual([...keys].sort());
  });

  it('pages: an expired continue token ends the pages with its 410, not a list started over', async () => {
    const names: string[] = [];
    const error = await kubeErrorOf(
      (async () => {
        for await (const page of access.kube.pages(RESOURCES.pods, {
          pageSize: 500,
          project: (pod) => pod.metadata.name,
        })) {
          if (names.length === 0) expireSnapshot(sim);
          names.push(...page);
        }
      })(),
    );
    expect(error.status).toBe(410);
    expect(names.length).toBe(500);
  });
});

let extraPods = 0;

/** A write moves the store past the list's snapshot; compaction then forgets that snapshot. */
function expireSnapshot(sim: Sim): void {
  extraPods++;
  sim.cluster.store.create(R.pods, {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: `late-${extraPods}`, namespace: 'default' },
    spec: { containers: [{ name: 'app', image: 'nginx' }] },
  });
  sim.cluster.store.compact();
}

function firstPodName(sim: Sim): string {
  return (sim.cluster.store.list(R.pods, { limit: 1 }).items[0] as KubeObject).metadata.name;
}
