// A child of bench/fan-out-memory.ts: the cgroup check in the deploy's bundle, run to its report,
// or, given a number of agents, one invocation that pauses once that many are judged (as a
// Lambda's ends) with its checkpoint. As the agents are judged it collects garbage and samples the
// heap, so what the run holds per agent shows apart from what it drops. Prints one JSON line.
import { readFileSync } from 'node:fs';
import { KubeConfig } from '@kubernetes/client-node';
import { cgroupRootHooks } from '../runbooks/cgroup-root-hooks/index.ts';
import { clusterAccess } from '../src/cluster/access.ts';
import { runInvocation } from '../src/engine/run.ts';
import { memorySample, ownPeakRssMiB } from './memory-sample.ts';

/** A full collection every this many agents: often enough to see the peak, rare enough to be cheap. */
const SAMPLE_EVERY = 500;

const [kubeconfigPath, deadlineText, pauseText] = process.argv.slice(2);
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc');
const kc = new KubeConfig();
kc.loadFromString(readFileSync(kubeconfigPath as string, 'utf8'));
const access = clusterAccess(kc, { name: 'bench', requestTimeoutMs: 120_000 });
const pauseAfter = pauseText ? Number(pauseText) : Number.POSITIVE_INFINITY;
// FAN_OUT_NO_GC=1 leaves collection to V8, as the worker runs: the series then shows what the
// collector lets grow, not only what is live.
const forceGc = process.env.FAN_OUT_NO_GC !== '1';
let heapPeak = 0;
let judged = 0;
const MiB = 1024 * 1024;
const series: Record<string, number>[] = [];
const sample = () => {
  if (forceGc) gc();
  heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed);
  series.push({ judged, ...memorySample() });
};
sample();
const heapBefore = heapPeak;
// Without forced collections, also through the agents' list (no progress is said while listing).
if (!forceGc) setInterval(sample, 1000).unref();
const result = await runInvocation({
  runbook: cgroupRootHooks,
  access,
  mode: 'dry-run',
  deadlineMs: Number(deadlineText ?? 900_000),
  pausing: () => judged >= pauseAfter,
  onProgress: (_step, done, total) => {
    judged = done;
    if (done % SAMPLE_EVERY === 0 || done === total) sample();
  },
});
sample();
const step = result.checkpoint
  ? result.checkpoint.paused.sofar
  : result.report.steps.find((s) => s.id === 'agent-cgroup-root');
process.stdout.write(
  `${JSON.stringify({
    maxRssMiB: ownPeakRssMiB(),
    heapBeforeMiB: heapBefore / MiB,
    heapPeakMiB: heapPeak / MiB,
    reportKiB: JSON.stringify(result.checkpoint ?? result.report).length / 1024,
    findings: step?.findings.length,
    evidence: step?.evidence.length,
    summary: step?.summary.slice(0, 200),
    ...(process.env.FAN_OUT_SERIES === '1' ? { series: series.filter((_, i) => i % 4 === 0) } : {}),
  })}\n`,
);
process.exit(0);
