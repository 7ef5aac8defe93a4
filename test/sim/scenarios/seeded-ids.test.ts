import { describe, expect, it } from 'vitest';
import { R } from '../../../sim/cluster.ts';
import type { KubeObject, Pod } from '../../../sim/objects.ts';
import { buildScenario } from '../../../sim/scenarios/index.ts';
import { clock, endpoint, pods } from './helpers.ts';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const CONTAINER_ID = /^containerd:\/\/[0-9a-f]{64}$/;

function containerIds(pod: Pod): string[] {
  const status = pod.status as { containerStatuses?: object[]; initContainerStatuses?: object[] };
  const statuses = [...(status.containerStatuses ?? []), ...(status.initContainerStatuses ?? [])];
  return statuses.map((s) => (s as { containerID: string }).containerID);
}

function distinct(values: readonly string[]): number {
  return new Set(values).size;
}

describe('ids of generated pods and CiliumEndpoints (kept as seeds, spelled out on read)', () => {
  const { cluster } = buildScenario(['scale'], { now: clock, nodes: 200, podsPerNode: 30 });
  const all = pods(cluster);
  const endpoints = cluster.store.list(R.ciliumendpoints).items;

  it('gives every pod its own v4 uid and every container its own 64-digit id', () => {
    const uids = all.map((pod) => pod.metadata.uid as string);
    expect(uids.every((uid) => UUID_V4.test(uid))).toBe(true);
    expect(distinct(uids)).toBe(all.length);
    const ids = all.flatMap(containerIds);
    expect(ids.every((id) => CONTAINER_ID.test(id))).toBe(true);
    expect(ids.length).toBeGreaterThan(all.length);
    expect(distinct(ids)).toBe(ids.length);
  });

  it('owns each CEP by its pod uid, with its own uid and sandbox id', () => {
    const podUids = new Set(all.map((pod) => pod.metadata.uid));
    const withEndpoint = all.filter((pod) => !pod.spec.hostNetwork);
    for (const pod of withEndpoint) {
      const cep = endpoint(cluster, pod) as KubeObject;
      expect(cep.metadata.ownerReferences?.[0]?.uid).toBe(pod.metadata.uid);
      expect(podUids.has(cep.metadata.uid)).toBe(false);
    }
    const cepUids = endpoints.map((cep) => cep.metadata.uid as string);
    expect(cepUids.every((uid) => UUID_V4.test(uid))).toBe(true);
    expect(distinct(cepUids)).toBe(endpoints.length);
    const sandboxes = endpoints.map(
      (cep) =>
        (cep.status as { 'external-identifiers': { 'container-id': string } })['external-identifiers'][
          'container-id'
        ],
    );
    expect(distinct(sandboxes)).toBe(endpoints.length);
    const podContainers = new Set(all.flatMap(containerIds).map((id) => id.slice('containerd://'.length)));
    expect(sandboxes.filter((id) => podContainers.has(id))).toEqual([]);
  });

  it('reads the same ids every time, and the same for a cluster built again with the seed', () => {
    const again = buildScenario(['scale'], { now: clock, nodes: 200, podsPerNode: 30 }).cluster;
    const first = all[all.length - 1] as Pod;
    const { namespace, name } = first.metadata;
    expect(cluster.store.get(R.pods, namespace, name)).toEqual(first);
    expect(again.store.get(R.pods, namespace, name)).toEqual(first);
    expect(again.store.get(R.ciliumendpoints, namespace, name)).toEqual(endpoint(cluster, first));
  });
});
