import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleWorkerChild, clientsOf } from '../../bench/worker-runs.ts';
import { type Sim, startSim } from '../../sim/index.ts';
import { buildCluster } from '../../sim/scenarios/index.ts';

const NODES = 120;

describe("the bench's worker child", () => {
  let sim: Sim;
  let bundle: string;

  beforeAll(async () => {
    bundle = await bundleWorkerChild();
    sim = await startSim({
      cluster: buildCluster(['scale'], { nodes: NODES, podsPerNode: 1 }),
      controllers: false,
    });
  }, 120_000);
  afterAll(() => sim.close());

  it('goes on in the next invocation when one ends, as the deployed worker does, and checks every agent once', async () => {
    // An invocation of 61 s pauses 60 s before its end: each takes about a second of the fan-out.
    process.env.BENCH_INVOCATION_MS = '61000';
    sim.faults.set('exec', { latencyMs: 300 });
    try {
      const run = await clientsOf(sim).worker(bundle, 'fanout');
      expect(run.invocations).toBeGreaterThan(1);
      expect(run.verdict).toBe('healthy');
      // The socket-LB step's one exec, then one per agent: none run twice across invocations.
      expect(run.execs).toBe(NODES + 1);
    } finally {
      delete process.env.BENCH_INVOCATION_MS;
      sim.faults.clear('exec');
    }
  }, 240_000);

  it("reports its own peak RSS, not the bench's: the bench's memory is no part of the figure", async () => {
    // Resident pages the bench holds outside V8's heap (as a simulator's store does) at the fork.
    const held = Array.from({ length: 600 }, () => Buffer.alloc(1 << 20, 1));
    const run = await clientsOf(sim).worker(bundle, 'plain');
    expect(held).toHaveLength(600);
    expect(run.maxRssMiB).toBeGreaterThan(30);
    expect(run.maxRssMiB).toBeLessThan(300);
  });
});
