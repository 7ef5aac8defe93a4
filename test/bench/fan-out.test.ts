import { describe, expect, it } from 'vitest';
import { timelineSample } from '../../bench/exec-timeline.ts';
import { type FanOutRuns, fanOutFigures } from '../../bench/fan-out.ts';
import type { ClientRun } from '../../bench/worker-runs.ts';

/** 1,000 execs at 50 ms, 16 at a time, are 3.125 s ideal: a run of `seconds` is that much over. */
const run = (seconds: number, maxRssMiB = 200): ClientRun => ({
  seconds,
  firstRequestSeconds: 0.3,
  maxRssMiB,
  cpuSeconds: 3,
  execs: 1000,
  verdict: 'healthy',
});

const measured = (runs: ClientRun[]) => ({ runs, simulator: timelineSample(), replayed: [] });

describe("the fan-out's figures", () => {
  // The limit: at most 1.3x ideal with the worker inside one vCPU, as the stack runs it.
  it('hold the time over ideal to 1.3 inside one vCPU, and the peak RSS to 256 MiB on the whole machine', () => {
    const runs: FanOutRuns = new Map([
      [undefined, measured([run(3.4, 210)])],
      [1024, measured([run(6.25)])],
      [1769, measured([run(5)])],
    ]);
    const figures = fanOutFigures(runs, { limits: true });
    const oneVcpu =
      'cgroup fan-out, CPU of a 1,769 MB Lambda (1.00 vCPU) / ideal (execs x latency / concurrency)';
    expect(figures[oneVcpu]).toMatchObject({ value: 1.6, atMost: 1.3 });
    expect(figures['cgroup fan-out / ideal (execs x latency / concurrency)']).not.toHaveProperty('atMost');
    expect(
      figures['cgroup fan-out, CPU of a 1,024 MB Lambda (0.58 vCPU) / ideal (execs x latency / concurrency)'],
    ).toMatchObject({ value: 2 });
    expect(figures['cgroup fan-out: peak RSS of the bundled worker (MiB)']).toMatchObject({
      value: 210,
      atMost: 256,
    });
    expect(fanOutFigures(runs, { limits: false })[oneVcpu]).not.toHaveProperty('atMost');
  });
});
