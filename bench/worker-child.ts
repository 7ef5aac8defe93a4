// A bench child: the worker's code, bundled as the deploy bundles it, measured in its own process
// (its peak RSS and CPU are the worker's, not the simulator's). Prints one JSON line: the run's
// wall time and CPU time (from the first request on), the process's peak RSS, and the verdict.
import { readFileSync } from 'node:fs';
import { CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import { cgroupRootHooks } from '../runbooks/cgroup-root-hooks/index.ts';
import { unmanagedPods } from '../runbooks/unmanaged-pods/index.ts';
import { clusterAccess } from '../src/cluster/access.ts';
import { RESOURCES } from '../src/cluster/types.ts';
import { runRunbook } from '../src/engine/run.ts';
import type { AnyRunbook } from '../src/engine/types.ts';
import { medianTimeline, recordClientExecs } from './exec-timeline.ts';

const [mode, kubeconfigPath] = process.argv.slice(2);
const RUNNING = 'status.phase=Running,spec.hostNetwork=false';
const kc = new KubeConfig();
kc.loadFromString(readFileSync(kubeconfigPath as string, 'utf8'));
const access = clusterAccess(kc, { name: 'bench', requestTimeoutMs: 120_000 });
const execs = recordClientExecs();
const started = performance.now();
const cpuBefore = process.cpuUsage();
let verdict = '';
if (mode === 'client-node-pods') {
  // client-node's typed API, paged as the facade pages: every pod becomes a model object.
  const api = kc.makeApiClient(CoreV1Api);
  let _continue: string | undefined;
  let uids = 0;
  do {
    const page = await api.listPodForAllNamespaces({ fieldSelector: RUNNING, limit: 500, _continue });
    uids += page.items.filter((pod) => pod.metadata?.uid).length;
    _continue = page.metadata?._continue || undefined;
  } while (_continue);
  verdict = String(uids);
} else if (mode === 'facade-pods') {
  // The same list through the project's facade, projected per page as the runbooks do.
  const uids = await access.kube.list(RESOURCES.pods, {
    fieldSelector: RUNNING,
    project: (pod) => pod.metadata.uid,
  });
  verdict = String(uids.length);
} else if (mode === 'plain') {
  // The same lists the scan reads, fetched page by page and dropped: the floor any scan sits on.
  await access.kube.list(RESOURCES.ciliumendpoints, { metadataOnly: true, project: () => undefined });
  await access.kube.list(RESOURCES.pods, {
    fieldSelector: RUNNING,
    project: () => undefined,
  });
} else {
  const runbook: AnyRunbook = mode === 'scan' ? unmanagedPods : cgroupRootHooks;
  const report = await runRunbook({
    runbook,
    access,
    mode: 'dry-run',
    deadlineMs: 900_000,
  });
  verdict = report.verdict;
}
const cpu = process.cpuUsage(cpuBefore);
process.stdout.write(
  `${JSON.stringify({
    seconds: (performance.now() - started) / 1000,
    cpuSeconds: (cpu.user + cpu.system) / 1e6,
    maxRssMiB: process.resourceUsage().maxRSS / 1024,
    verdict,
    ...(execs.length > 0 ? { execTimeline: medianTimeline(execs) } : {}),
  })}\n`,
);
process.exit(0);
