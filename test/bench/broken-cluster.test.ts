import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tapRequests } from '../../bench/request-tap.ts';
import { brokenCluster } from '../../bench/scale-clusters.ts';
import { cgroupRootHooks } from '../../runbooks/cgroup-root-hooks/index.ts';
import { unmanagedPods } from '../../runbooks/unmanaged-pods/index.ts';
import { type Sim, startSim } from '../../sim/index.ts';
import { runRunbook } from '../../src/engine/run.ts';
import { simAccess } from '../helpers/sim-access.ts';

/**
 * The bench's broken cluster makes the runbooks take the paths the healthy one never does: the
 * scan finds unmanaged pods (and so lists the agents), the cgroup check finds agents with the
 * hooks on their container, and agents on the host root whose hooks stayed on a container scope
 * (their walks list every pod's scope); the tap counts each exec once.
 */
describe('the bench broken cluster', () => {
  const NODES = 300;
  let sim: Sim;
  let broken: ReturnType<typeof brokenCluster>;

  beforeAll(async () => {
    broken = brokenCluster(NODES);
    sim = await startSim({ cluster: broken.cluster, controllers: false });
  });
  afterAll(() => sim?.close());

  it('has unmanaged pods the scan finds, beside the scenario ones', async () => {
    const report = await runRunbook({ runbook: unmanagedPods, access: simAccess(sim), mode: 'dry-run' });
    expect(report.verdict).not.toBe('healthy');
    const findings = report.steps.flatMap((step) => step.findings);
    expect(broken.unmanagedPods).toBeGreaterThanOrEqual(90);
    expect(findings.length).toBeGreaterThanOrEqual(broken.unmanagedPods);
  });

  it('has agents with the hooks on their container and left on a scope; the check execs once per agent', async () => {
    const tap = tapRequests(sim);
    sim.faults.set('exec', { latencyMs: 1 });
    try {
      tap.reset();
      const report = await runRunbook({ runbook: cgroupRootHooks, access: simAccess(sim), mode: 'dry-run' });
      const agents = broken.cluster.agents.size;
      // One status exec on the sampled agent, then one per agent (its facts and its walk in one sh -c).
      expect(tap.seen().execs).toBe(1 + agents);
      const findings = report.steps.flatMap((step) => step.findings);
      expect(findings.filter((finding) => finding.code === 'AGENT_CHECK_FAILED')).toEqual([]);
      expect(new Set(findings.map((finding) => finding.target)).size).toBe(
        broken.hooksOnContainer + broken.hooksGone,
      );
    } finally {
      sim.faults.clear('exec');
    }
  });
});
