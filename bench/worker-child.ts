// A bench child: the worker's code, bundled as the deploy bundles it, measured in its own process
// (its peak RSS is the worker's, not the simulator's). Prints one JSON line.
import { readFileSync } from 'node:fs';
import { KubeConfig } from '@kubernetes/client-node';
import { cgroupRootHooks } from '../runbooks/cgroup-root-hooks/index.ts';
import { unmanagedPods } from '../runbooks/unmanaged-pods/index.ts';
import { clusterAccess } from '../src/cluster/access.ts';
import { RESOURCES } from '../src/cluster/types.ts';
import { runRunbook } from '../src/engine/run.ts';

const [mode, kubeconfigPath] = process.argv.slice(2);
const kc = new KubeConfig();
kc.loadFromString(readFileSync(kubeconfigPath as string, 'utf8'));
const access = clusterAccess(kc, { name: 'bench', requestTimeoutMs: 120_000 });
const started = performance.now();
let verdict = '';
if (mode === 'plain') {
  // The same lists the scan reads, fetched page by page and dropped: the floor any scan sits on.
  await access.kube.list(RESOURCES.ciliumendpoints, { project: 'metadata' });
  await access.kube.list(RESOURCES.pods, {
    fieldSelector: 'status.phase=Running,spec.hostNetwork=false',
    project: () => undefined,
  });
} else {
  const runbook = mode === 'scan' ? unmanagedPods : cgroupRootHooks;
  const report = await runRunbook({
    runbook: runbook as never,
    access,
    mode: 'dry-run',
    deadlineMs: 900_000,
  });
  verdict = report.verdict;
}
process.stdout.write(
  `${JSON.stringify({ seconds: (performance.now() - started) / 1000, maxRssMiB: process.resourceUsage().maxRSS / 1024, verdict })}\n`,
);
process.exit(0);
