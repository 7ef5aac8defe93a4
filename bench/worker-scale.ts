import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { R } from '../sim/cluster.ts';
import { startSim } from '../sim/index.ts';
import { buildCluster } from '../sim/scenarios/index.ts';
import { bundleLikeTheDeploy } from './bundle-like-deploy.ts';
import type { Figures } from './figures.ts';

const NODES = 5_000;
const EXEC_LATENCY_MS = 50;
/** The engine's default fan-out (DEFAULT_LIMITS.concurrency). */
const CONCURRENCY = 16;

interface ChildResult {
  seconds: number;
  maxRssMiB: number;
  verdict: string;
}

/** The worker's code as the deploy bundles it (ESM, minified), in a folder of its own. */
async function bundleChild(): Promise<string> {
  mkdirSync(join(process.cwd(), 'cdk.out'), { recursive: true });
  const outfile = join(mkdtempSync(join(process.cwd(), 'cdk.out', 'bench-')), 'worker.mjs');
  await bundleLikeTheDeploy('bench/worker-child.ts', outfile);
  return outfile;
}

/** Runs the child without blocking this process: the simulator it talks to lives here. */
async function runChild(bundle: string, mode: string, kubeconfig: string): Promise<ChildResult> {
  try {
    const { stdout } = await promisify(execFile)(process.execPath, [bundle, mode, kubeconfig], {
      encoding: 'utf8',
      maxBuffer: 1 << 20,
    });
    return JSON.parse(stdout.trim().split('\n').pop() ?? '{}') as ChildResult;
  } catch (error) {
    const stderr = String((error as { stderr?: string }).stderr ?? error);
    throw new Error(
      `bench child ${mode} failed: ${stderr
        .split('\n')
        .filter((line) => line.length < 300)
        .join('\n')}`,
    );
  }
}

/**
 * Collects what earlier measurements left in this process (npm run bench exposes gc), so the
 * simulator does not stop for it in the middle of the next one.
 */
const settle = () => (globalThis as { gc?: () => void }).gc?.();

/** Interleaved rounds of the scan and the plain GET; each figure is their median. */
const ROUNDS = 5;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

/**
 * The worker at 5,000 nodes, in its own process, against the simulator in this one: the
 * unmanaged-pods scan beside a plain paged GET of the same lists, and the cgroup check's fan-out
 * over 5,000 agents whose every exec takes 50 ms, beside the ideal (agents × latency / concurrency).
 */
export async function workerScaleBench(): Promise<Figures> {
  const bundle = await bundleChild();
  const dir = mkdtempSync(join(tmpdir(), 'bench-worker-'));
  const cluster = buildCluster(['scale'], { nodes: NODES, podsPerNode: 30 });
  const sim = await startSim({ cluster, controllers: false });
  const kubeconfig = join(dir, 'kubeconfig');
  writeFileSync(kubeconfig, sim.kubeconfig());
  try {
    const plain: ChildResult[] = [];
    const scan: ChildResult[] = [];
    settle();
    for (let round = 0; round < ROUNDS; round++) {
      plain.push(await runChild(bundle, 'plain', kubeconfig));
      scan.push(await runChild(bundle, 'scan', kubeconfig));
    }
    const viaFacade: ChildResult[] = [];
    const viaClientNode: ChildResult[] = [];
    for (let round = 0; round < 3; round++) {
      viaFacade.push(await runChild(bundle, 'facade-pods', kubeconfig));
      viaClientNode.push(await runChild(bundle, 'client-node-pods', kubeconfig));
    }
    settle();
    sim.faults.set('exec', { latencyMs: EXEC_LATENCY_MS });
    const fanOut = await runChild(bundle, 'fanout', kubeconfig);
    const ideal = (NODES * EXEC_LATENCY_MS) / 1000 / CONCURRENCY;
    const scanSeconds = median(scan.map((r) => r.seconds));
    const plainSeconds = median(plain.map((r) => r.seconds));
    return {
      'pods / CEPs': `${cluster.store.count(R.pods)} / ${cluster.store.count(R.ciliumendpoints)}`,
      'unmanaged scan (s)': Number(scanSeconds.toFixed(1)),
      'plain paged GET of the same lists (s)': Number(plainSeconds.toFixed(1)),
      'unmanaged scan / plain paged GET': {
        value: Number((scanSeconds / plainSeconds).toFixed(2)),
        atMost: 1.1,
      },
      'unmanaged scan peak RSS of the bundled worker (MiB)': {
        value: Math.round(Math.max(...scan.map((r) => r.maxRssMiB))),
        atMost: 256,
      },
      'pods listed via client-node CoreV1Api / via the facade (time)': Number(
        (median(viaClientNode.map((r) => r.seconds)) / median(viaFacade.map((r) => r.seconds))).toFixed(2),
      ),
      'pods listed via client-node CoreV1Api / via the facade (peak RSS)': Number(
        (
          Math.max(...viaClientNode.map((r) => r.maxRssMiB)) / Math.max(...viaFacade.map((r) => r.maxRssMiB))
        ).toFixed(2),
      ),
      [`cgroup fan-out over ${NODES} agents at ${EXEC_LATENCY_MS} ms per exec (s)`]: Number(
        fanOut.seconds.toFixed(1),
      ),
      'cgroup fan-out / ideal (agents x latency / concurrency)': {
        value: Number((fanOut.seconds / ideal).toFixed(2)),
        atMost: 1.3,
      },
      'cgroup fan-out peak RSS of the bundled worker (MiB)': {
        value: Math.round(fanOut.maxRssMiB),
        atMost: 300,
      },
    };
  } finally {
    await sim.close();
  }
}
