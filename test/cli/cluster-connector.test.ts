import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clusterConnector } from '../../cli/cluster-connector.ts';
import { R } from '../../sim/cluster.ts';
import { type Sim, startSim } from '../../sim/index.ts';
import type { KubeObject } from '../../sim/objects.ts';
import { ConfigSchema } from '../../src/config/schema.ts';

describe('clusterConnector', () => {
  let sim: Sim;
  let kubeconfigPath: string;
  beforeAll(async () => {
    sim = await startSim({ scenarios: ['healthy'], controllers: false });
    kubeconfigPath = join(mkdtempSync(join(tmpdir(), 'connector-')), 'kubeconfig');
    writeFileSync(kubeconfigPath, sim.kubeconfig());
  });
  afterAll(() => sim.close());

  // `responder serve` keeps one connector for its whole life; each run must read the cluster as it is.
  it('gives a later run the agents and cilium-config as they are now, not as an earlier run read them', async () => {
    const [cluster] = ConfigSchema.parse({
      clusters: [{ name: 'prod', kubeconfig: { path: kubeconfigPath } }],
    }).clusters;
    if (!cluster) throw new Error('no cluster in the config');
    const connector = clusterConnector();
    const first = await connector.connect(cluster);
    const agentsBefore = await first.cilium.agents();
    expect((await first.cilium.config())['cgroup-root']).toBeDefined();

    const [gone] = agentsBefore;
    if (!gone) throw new Error('no agent');
    sim.cluster.store.delete(R.pods, gone.namespace, gone.name);
    sim.cluster.store.update<KubeObject & { data?: Record<string, string> }>(
      R.configmaps,
      'kube-system',
      'cilium-config',
      (config) => ({ ...config, data: { ...config.data, 'cgroup-root': '/changed' } }),
    );

    const later = await connector.connect(cluster);
    expect((await later.cilium.agents()).map((agent) => agent.name)).not.toContain(gone.name);
    expect((await later.cilium.agents()).length).toBe(agentsBefore.length - 1);
    expect((await later.cilium.config())['cgroup-root']).toBe('/changed');
    await connector.close();
  });
});
