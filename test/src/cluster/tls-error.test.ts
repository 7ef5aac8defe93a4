import { KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { type Sim, startSim } from '../../../sim/index.ts';
import { clusterAccess } from '../../../src/cluster/access.ts';
import { RESOURCES } from '../../../src/cluster/types.ts';

/** The kubeconfig of `sim`, with its certificate-authority-data replaced by `caData`. */
function withCa(sim: Sim, caData: string): KubeConfig {
  const config = parse(sim.kubeconfig()) as { clusters: { cluster: Record<string, string> }[] };
  for (const entry of config.clusters) entry.cluster['certificate-authority-data'] = caData;
  const kc = new KubeConfig();
  kc.loadFromString(stringify(config));
  return kc;
}

const caOf = (sim: Sim) =>
  (parse(sim.kubeconfig()) as { clusters: { cluster: Record<string, string> }[] }).clusters[0]?.cluster[
    'certificate-authority-data'
  ] as string;

describe('a kubeconfig whose CA is wrong', () => {
  let cluster: Sim;
  let other: Sim;
  beforeAll(async () => {
    [cluster, other] = await Promise.all([
      startSim({ scenarios: ['healthy'] }),
      startSim({ scenarios: ['healthy'] }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([cluster.close(), other.close()]);
  });

  it('says the server certificate is not signed by the kubeconfig CA, and what to do', async () => {
    const access = clusterAccess(withCa(cluster, caOf(other)), { name: 'wrong-ca', retries: 0 });
    await expect(access.kube.list(RESOURCES.nodes, { project: 'metadata' })).rejects.toThrow(
      /presented a certificate that the cluster's certificate-authority-data in the kubeconfig did not sign .*check that the kubeconfig is for this cluster/,
    );
  });

  it('says so when the CA is not a certificate at all', async () => {
    const garbage = Buffer.from('this is not a certificate').toString('base64');
    const access = clusterAccess(withCa(cluster, garbage), { name: 'garbage-ca', retries: 0 });
    const error = await access.kube.list(RESOURCES.nodes, { project: 'metadata' }).catch((e: Error) => e);
    expect(String(error)).toMatch(/certificate-authority-data/);
  });
});
