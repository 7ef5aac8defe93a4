// A bench child: the worker's code, bundled as the deploy bundles it, measured in its own process
// (its peak RSS and CPU are the worker's, not the simulator's). Prints one JSON line: the run's
// wall time and CPU time (from the first request on), the process's peak RSS, and the verdict.

import { subscribe } from 'node:diagnostics_channel';
import { appendFileSync, readFileSync } from 'node:fs';
import { getHeapSpaceStatistics } from 'node:v8';
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
const seriesFile = process.env.BENCH_WORKER_SERIES;
if (seriesFile) sampleEachSecond(seriesFile);
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

/**
 * BENCH_WORKER_SERIES=<file>: a development aid, one JSON line a second appended to the file (the
 * RSS, V8's spaces and external memory in MiB, the execs started), to see where a run's peak is.
 */
function sampleEachSecond(file: string): void {
  let execsStarted = 0;
  subscribe('http.client.request.start', (message) => {
    if ((message as { request: { path: string } }).request.path.includes('/exec?')) execsStarted += 1;
  });
  const MiB = 1024 * 1024;
  const began = performance.now();
  const space = (name: string) =>
    Math.round((getHeapSpaceStatistics().find((s) => s.space_name === name)?.space_used_size ?? 0) / MiB);
  setInterval(() => {
    const usage = process.memoryUsage();
    const line = {
      s: Math.round((performance.now() - began) / 1000),
      execs: execsStarted,
      rss: Math.round(usage.rss / MiB),
      heap: Math.round(usage.heapUsed / MiB),
      heapTotal: Math.round(usage.heapTotal / MiB),
      external: Math.round(usage.external / MiB),
      arrayBuffers: Math.round(usage.arrayBuffers / MiB),
      old: space('old_space'),
      young: space('new_space'),
      large: space('large_object_space'),
      code: space('code_space'),
    };
    appendFileSync(file, `${JSON.stringify(line)}\n`);
  }, 1000).unref();
}
