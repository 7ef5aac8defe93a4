// Development measure (not a bench section): what the cgroup check's fan-out holds per agent.
//   node --import tsx bench/fan-out-memory.ts 2000 20000
//   FAN_OUT_PAUSE_AFTER=20000 node --import tsx --max-old-space-size=8192 bench/fan-out-memory.ts 20000 100000
// (the second: each run is one invocation that pauses once 20,000 agents are judged, as a Lambda's
// would; its "report" is then the checkpoint; a 100,000-node simulator takes about 3 GiB here).
// FAN_OUT_CASE=healthy measures one case; FAN_OUT_NO_GC=1 leaves collection to V8 as the worker
// runs (the RSS then shows what the collector lets grow); FAN_OUT_SERIES=1 prints the RSS and
// V8's spaces through the run.
// At each size, in a child running the deploy's bundle: every agent healthy; every exec forbidden
// (each agent fails alike); and a deadline that stops the run part way (the agents not reached
// fail with its reason). Per case, the heap's peak after full collections and the peak RSS, and
// between the sizes the growth per agent. Agents have one pod each: what the check holds of an
// agent does not depend on its pods, only what it parses and drops does.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSim } from '../sim/index.ts';
import { buildCluster } from '../sim/scenarios/index.ts';
import { bundleLikeTheDeploy } from './bundle-like-deploy.ts';
import { lastJsonLine, runMeasured } from './processes.ts';

interface ChildRun {
  maxRssMiB: number;
  heapBeforeMiB: number;
  heapPeakMiB: number;
  reportKiB: number;
  findings: number;
  evidence: number;
  summary: string;
}

const CASES = {
  healthy: { deadlineMs: 900_000, forbidden: false, latencyMs: 0 },
  'exec forbidden': { deadlineMs: 900_000, forbidden: true, latencyMs: 0 },
  'deadline after 40 s, 50 ms an exec': { deadlineMs: 40_000, forbidden: false, latencyMs: 50 },
} as const;
type Case = keyof typeof CASES;

const pauseAfter = process.env.FAN_OUT_PAUSE_AFTER;
/** FAN_OUT_CASE=healthy measures that case alone. */
const only = process.env.FAN_OUT_CASE;
const sizes = process.argv.slice(2).map(Number);
if (sizes.length !== 2 || sizes.some((n) => !Number.isInteger(n) || n < 10))
  throw new Error('give two cluster sizes (nodes), e.g. 2000 20000');
delete process.env.NODE_EXTRA_CA_CERTS;
const dir = mkdtempSync(join(tmpdir(), 'bench-fan-out-memory-'));
const { entry } = await bundleLikeTheDeploy('bench/fan-out-memory-child.ts', dir);

const measured = new Map<Case, ChildRun[]>();
for (const nodes of sizes) {
  const sim = await startSim({
    cluster: buildCluster(['scale'], { nodes, podsPerNode: 1 }),
    controllers: false,
  });
  try {
    const readOnly = sim.issueToken('reader', [{ verbs: ['get', 'list', 'watch'], resources: ['*'] }]);
    for (const [name, { deadlineMs, forbidden, latencyMs }] of Object.entries(CASES) as [
      Case,
      (typeof CASES)[Case],
    ][]) {
      // A pausing run is measured at sizes whose list alone outlasts the deadline case's deadline.
      if (pauseAfter && deadlineMs < 900_000) continue;
      if (only && name !== only) continue;
      const kubeconfig = join(dir, `kubeconfig-${nodes}-${forbidden}`);
      writeFileSync(kubeconfig, sim.kubeconfig(forbidden ? readOnly.token : undefined));
      sim.faults.set('exec', { latencyMs });
      const finished = await runMeasured(process.execPath, [
        '--expose-gc',
        entry,
        kubeconfig,
        String(deadlineMs),
        ...(pauseAfter ? [pauseAfter] : []),
      ]);
      const run = lastJsonLine<ChildRun>(finished.stdout);
      process.stdout.write(`${nodes} agents, ${name}: ${JSON.stringify(run)}\n`);
      measured.set(name, [...(measured.get(name) ?? []), run]);
    }
  } finally {
    await sim.close();
  }
}
const [small, large] = sizes as [number, number];
for (const [name, [a, b]] of measured as Map<Case, [ChildRun, ChildRun]>) {
  const perAgent = (mib: number) => Math.round((mib * 1024 * 1024) / (large - small));
  process.stdout.write(
    `${name}: heap peak ${a.heapPeakMiB.toFixed(1)} -> ${b.heapPeakMiB.toFixed(1)} MiB (${perAgent(b.heapPeakMiB - a.heapPeakMiB)} bytes per agent), ` +
      `peak RSS ${a.maxRssMiB.toFixed(0)} -> ${b.maxRssMiB.toFixed(0)} MiB (${perAgent(b.maxRssMiB - a.maxRssMiB)} bytes per agent), ` +
      `report ${a.reportKiB.toFixed(0)} -> ${b.reportKiB.toFixed(0)} KiB\n`,
  );
}
process.exit(0);
