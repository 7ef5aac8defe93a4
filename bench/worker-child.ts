// A bench child: the worker's code, bundled as the deploy bundles it, measured in its own process
// (its peak RSS and CPU are the worker's, not the simulator's). Prints one JSON line: the run's
// wall time and CPU time (from the first request on), the process's peak RSS, and the verdict.

import { subscribe } from 'node:diagnostics_channel';
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import { cgroupRootHooks } from '../runbooks/cgroup-root-hooks/index.ts';
import { unmanagedPods } from '../runbooks/unmanaged-pods/index.ts';
import { clusterAccess } from '../src/cluster/access.ts';
import { RESOURCES } from '../src/cluster/types.ts';
import { type RunCheckpoint, reportAtCheckpoint } from '../src/engine/checkpoint.ts';
import { runInvocation } from '../src/engine/run.ts';
import type { AnyRunbook, Report } from '../src/engine/types.ts';
import { invocationBudget } from '../src/worker/continue-later.ts';
import { medianTimeline, recordClientExecs } from './exec-timeline.ts';
import { memorySample, ownPeakRssMiB } from './memory-sample.ts';

const [mode, kubeconfigPath] = process.argv.slice(2);
/**
 * A Lambda invocation's time: the deployed worker's runs pause a minute before it and go on in the
 * next (BENCH_INVOCATION_MS shortens it, to see a run go on at a small size).
 */
const INVOCATION_MS = Number(process.env.BENCH_INVOCATION_MS ?? 900_000);
/** The run's own deadline, counted from its start: two invocations' time. */
const RUN_DEADLINE_MS = 2 * INVOCATION_MS;
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
let invocations = 1;
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
  const runs = await runLikeTheWorker(mode === 'scan' ? unmanagedPods : cgroupRootHooks);
  verdict = runs.report.verdict;
  invocations = runs.invocations;
  // BENCH_WORKER_REPORT=<file>: a development aid, the run's whole report, to see what a verdict rests on.
  if (process.env.BENCH_WORKER_REPORT)
    writeFileSync(process.env.BENCH_WORKER_REPORT, JSON.stringify(runs.report));
}
const cpu = process.cpuUsage(cpuBefore);
process.stdout.write(
  `${JSON.stringify({
    seconds: (performance.now() - started) / 1000,
    cpuSeconds: (cpu.user + cpu.system) / 1e6,
    maxRssMiB: ownPeakRssMiB(),
    verdict,
    invocations,
    ...(execs.length > 0 ? { execTimeline: medianTimeline(execs) } : {}),
  })}\n`,
);
process.exit(0);

/**
 * The runbook as the deployed worker runs it: one invocation of at most Lambda's 15 minutes, which
 * pauses a minute before its end (invocationBudget, as src/worker does) and whose checkpoint,
 * kept as JSON as the state table keeps it, the next invocation goes on from with a new
 * connection, in this process as in a warm Lambda, until the run reports.
 */
async function runLikeTheWorker(runbook: AnyRunbook): Promise<{ report: Report; invocations: number }> {
  const clock = { startedAt: Date.now(), deadlineMs: RUN_DEADLINE_MS, invocation: 1 };
  let resumeFrom: RunCheckpoint | undefined;
  for (; ; clock.invocation++) {
    const began = performance.now();
    const context = { now: () => new Date(), timeLeftMs: () => INVOCATION_MS - (performance.now() - began) };
    const budget = invocationBudget(clock, context);
    const result = await runInvocation({
      runbook,
      access:
        clock.invocation === 1 ? access : clusterAccess(kc, { name: 'bench', requestTimeoutMs: 120_000 }),
      mode: 'dry-run',
      deadlineMs: Math.max(0, budget.runLeftMs),
      pausing: () => invocationBudget(clock, context).pausing,
      ...(resumeFrom ? { resumeFrom } : {}),
    });
    if (!result.checkpoint) return { report: result.report, invocations: clock.invocation };
    const { why, left } = invocationBudget(clock, context);
    if (!left) {
      const report = reportAtCheckpoint(result.checkpoint, {
        runId: 'bench',
        runbook,
        cluster: 'bench',
        mode: 'dry-run',
        now: new Date(),
        why: why ?? 'timed out',
      });
      return { report, invocations: clock.invocation };
    }
    resumeFrom = JSON.parse(JSON.stringify(result.checkpoint)) as RunCheckpoint;
  }
}

/**
 * BENCH_WORKER_SERIES=<file>: a development aid, one JSON line a second appended to the file (the
 * RSS, V8's spaces and external memory in MiB, the execs started), to see where a run's peak is.
 */
function sampleEachSecond(file: string): void {
  let execsStarted = 0;
  subscribe('http.client.request.start', (message) => {
    if ((message as { request: { path: string } }).request.path.includes('/exec?')) execsStarted += 1;
  });
  const began = performance.now();
  setInterval(() => {
    const line = {
      s: Math.round((performance.now() - began) / 1000),
      execs: execsStarted,
      ...memorySample(),
    };
    appendFileSync(file, `${JSON.stringify(line)}\n`);
  }, 1000).unref();
}
