import { KubeConfig } from '@kubernetes/client-node';
import { unmanagedPods } from '../runbooks/unmanaged-pods/index.ts';
import { R } from '../sim/cluster.ts';
import { startSim } from '../sim/index.ts';
import { buildCluster } from '../sim/scenarios/index.ts';
import { clusterAccess } from '../src/cluster/access.ts';
import { runRunbook } from '../src/engine/run.ts';

/**
 * How the unmanaged-pods check grows with the cluster: a dry run over HTTPS against 500 and 5,000
 * simulated nodes (30 pods each), reported as the cost per pod at 5,000 over the cost per pod at
 * 500 (1.0 = linear), measured in one run.
 */
async function secondsFor(nodes: number): Promise<{ seconds: number; pods: number; verdict: string }> {
  const cluster = buildCluster(['scale'], { nodes, podsPerNode: 30 });
  const sim = await startSim({ cluster, controllers: false });
  try {
    const kc = new KubeConfig();
    kc.loadFromString(sim.kubeconfig());
    const access = clusterAccess(kc, { name: 'bench', requestTimeoutMs: 60_000 });
    const started = performance.now();
    const report = await runRunbook({ runbook: unmanagedPods, access, mode: 'dry-run', deadlineMs: 600_000 });
    return {
      seconds: (performance.now() - started) / 1000,
      pods: cluster.store.count(R.pods),
      verdict: report.verdict,
    };
  } finally {
    await sim.close();
  }
}

export async function runbookScaleBench(): Promise<Record<string, number | string>> {
  const small = await secondsFor(500);
  const large = await secondsFor(5000);
  return {
    'unmanaged-pods dry-run, 500 nodes (s)': Number(small.seconds.toFixed(1)),
    'unmanaged-pods dry-run, 5,000 nodes (s)': Number(large.seconds.toFixed(1)),
    verdicts: `${small.verdict} / ${large.verdict}`,
    'cost per pod ratio 5,000/500 nodes (1.0 = linear)': Number(
      (large.seconds / large.pods / (small.seconds / small.pods)).toFixed(2),
    ),
  };
}
