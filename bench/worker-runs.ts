import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Sim } from '../sim/index.ts';
import { bundleLikeTheDeploy } from './bundle-like-deploy.ts';
import type { CpuQuota } from './cpu-quota.ts';
import type { Timeline } from './exec-timeline.ts';
import { lastJsonLine, runMeasured } from './processes.ts';
import { tapRequests } from './request-tap.ts';

/** One client run against the simulator, as both sides saw it. */
export interface ClientRun {
  seconds: number;
  /** From the process's start to its first request at the simulator. */
  firstRequestSeconds: number;
  maxRssMiB: number;
  /** CPU time of the run itself (the bundled worker reports it; the CLI does not). */
  cpuSeconds?: number;
  execs: number;
  verdict: string;
  /** Worker invocations the run took (it pauses before Lambda's 15 minutes and goes on in the next). */
  invocations?: number;
  /** The client's median exec, moment by moment (execTimeline in bench/exec-timeline.ts). */
  execTimeline?: Timeline;
}

/**
 * Collects what earlier measurements left in this process (npm run bench exposes gc), so the
 * simulator does not stop for it in the middle of the next one.
 */
export const settle = () => (globalThis as { gc?: () => void }).gc?.();

/** The worker's code as the deploy bundles it (ESM, minified), in a folder of its own. */
export async function bundleWorkerChild(): Promise<string> {
  mkdirSync(join(process.cwd(), 'cdk.out'), { recursive: true });
  const dir = mkdtempSync(join(process.cwd(), 'cdk.out', 'bench-'));
  return (await bundleLikeTheDeploy('bench/worker-child.ts', dir)).entry;
}

/**
 * A simulator served from this process, with a kubeconfig file for children, and a tap on its
 * requests: every client here runs in a process of its own, one at a time.
 */
export function clientsOf(sim: Sim) {
  const kubeconfig = join(mkdtempSync(join(tmpdir(), 'bench-kubeconfig-')), 'kubeconfig');
  writeFileSync(kubeconfig, sim.kubeconfig());
  const tap = tapRequests(sim);

  async function measure(
    run: () => ReturnType<typeof runMeasured>,
  ): Promise<Awaited<ReturnType<typeof runMeasured>> & { firstRequestSeconds: number; execs: number }> {
    tap.reset();
    const finished = await run();
    const seen = tap.seen();
    if (seen.firstAt === undefined) throw new Error('the client never reached the simulator');
    return {
      ...finished,
      firstRequestSeconds: (seen.firstAt - finished.startedAt) / 1000,
      execs: seen.execs,
    };
  }

  return {
    kubeconfig,
    /**
     * The bundled worker child in `mode`, optionally inside a CPU quota, and through another
     * server in front of the simulator (a kubeconfig file naming it).
     */
    async worker(bundle: string, mode: string, quota?: CpuQuota, through = kubeconfig): Promise<ClientRun> {
      const command = quota
        ? quota.wrap(process.execPath, [bundle, mode, through])
        : { file: process.execPath, args: [bundle, mode, through] };
      const finished = await measure(() => runMeasured(command.file, command.args));
      const child = lastJsonLine<{
        seconds: number;
        cpuSeconds: number;
        maxRssMiB: number;
        verdict: string;
        invocations: number;
        execTimeline?: Timeline;
      }>(finished.stdout);
      // A long bench shows it is moving.
      process.stderr.write(`    ${mode}${quota ? ' (quota)' : ''}: ${child.seconds.toFixed(1)} s\n`);
      return { ...child, firstRequestSeconds: finished.firstRequestSeconds, execs: finished.execs };
    },
    /** Any other client (the CLI), measured from outside: wall time, first request, peak RSS. */
    async process(file: string, args: string[], options: Parameters<typeof runMeasured>[2] = {}) {
      const finished = await measure(() => runMeasured(file, args, { ...options, peakRss: true }));
      return {
        seconds: finished.seconds,
        firstRequestSeconds: finished.firstRequestSeconds,
        maxRssMiB: finished.maxRssMiB ?? Number.NaN,
        execs: finished.execs,
        stdout: finished.stdout,
      };
    },
  };
}
