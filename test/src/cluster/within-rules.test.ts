import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineRunbook, defineStep, isKubeError, outcome, RESOURCES } from '../../../sdk/index.ts';
import type { ReadPermission } from '../../../sdk/rules.ts';
import { startCluster, type TestCluster } from '../../../sdk/testing.ts';
import type { KubeReader } from '../../../src/cluster/types.ts';

/** Each read a step tries, and whether the run let it through (`ok`) or refused it (`forbidden`). */
const READS: Record<string, (kube: KubeReader) => Promise<unknown>> = {
  'list pods, every namespace': (kube) => kube.list(RESOURCES.pods, { project: 'metadata' }),
  'get cilium-config in kube-system': (kube) =>
    kube.get(RESOURCES.configmaps, 'kube-system', 'cilium-config'),
  'get aws-auth in kube-system': (kube) => kube.get(RESOURCES.configmaps, 'kube-system', 'aws-auth'),
  'get cilium-config in default': (kube) => kube.get(RESOURCES.configmaps, 'default', 'cilium-config'),
  'list deployments, every namespace': (kube) => kube.list(RESOURCES.deployments, { project: 'metadata' }),
  'list daemonsets in kube-system': (kube) =>
    kube.list(RESOURCES.daemonsets, { namespace: 'kube-system', project: 'metadata' }),
  'list daemonsets, every namespace': (kube) => kube.list(RESOURCES.daemonsets, { project: 'metadata' }),
  'exec in a pod of default': (kube) => kube.exec('default', 'some-pod', 'app', ['true']),
  'pages of deployments, every namespace': async (kube) => {
    for await (const _page of kube.pages(RESOURCES.deployments, { project: 'metadata' })) return;
  },
};

const probe = (permissions: ReadPermission[]) =>
  defineRunbook({
    id: 'probe-reads',
    title: 'reads',
    summary: 'Tries reads and says which were let through.',
    permissions,
    steps: [
      defineStep({
        id: 'reads',
        title: 'reads',
        run: async (ctx) => {
          const seen: string[] = [];
          for (const [read, attempt] of Object.entries(READS)) {
            const verdict = await attempt(ctx.kube).then(
              () => 'ok',
              (error) => (isKubeError(error, 'forbidden') ? 'forbidden' : 'other'),
            );
            seen.push(`${read}: ${verdict}`);
          }
          return outcome('pass', seen.join('\n'));
        },
      }),
    ],
  });

describe('ctx.kube holds a run to the RBAC rules', () => {
  let cluster: TestCluster;
  beforeAll(async () => {
    cluster = await startCluster({ options: { nodes: 1 } });
  });
  afterAll(() => cluster.close());
  const reads = async (permissions: ReadPermission[]) =>
    ((await cluster.run(probe(permissions))).steps[0]?.summary ?? '').split('\n');

  it("lets through the responder's own reads only, names included, and no exec outside the agents", async () => {
    expect(await reads([])).toEqual([
      'list pods, every namespace: ok',
      'get cilium-config in kube-system: ok',
      'get aws-auth in kube-system: forbidden',
      'get cilium-config in default: forbidden',
      'list deployments, every namespace: forbidden',
      'list daemonsets in kube-system: forbidden',
      'list daemonsets, every namespace: forbidden',
      'exec in a pod of default: forbidden',
      'pages of deployments, every namespace: forbidden',
    ]);
  });

  it('adds what the runbook declares, a cilium-namespace rule only there', async () => {
    expect(
      await reads([
        { apiGroups: ['apps'], resources: ['deployments'], verbs: ['list'] },
        { apiGroups: ['apps'], resources: ['daemonsets'], verbs: ['list'], scope: 'cilium-namespace' },
      ]),
    ).toEqual([
      'list pods, every namespace: ok',
      'get cilium-config in kube-system: ok',
      'get aws-auth in kube-system: forbidden',
      'get cilium-config in default: forbidden',
      'list deployments, every namespace: ok',
      'list daemonsets in kube-system: ok',
      'list daemonsets, every namespace: forbidden',
      'exec in a pod of default: forbidden',
      'pages of deployments, every namespace: ok',
    ]);
  });
});
