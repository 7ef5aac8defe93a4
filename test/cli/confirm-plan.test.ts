import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type ClusterConnector, clusterConnector } from '../../cli/cluster-connector.ts';
import { confirmPlan } from '../../cli/confirm-plan.ts';
import { localUser, withCluster } from '../../cli/local-app.ts';
import { runLocally } from '../../cli/local-run.ts';
import type { Report } from '../../src/engine/types.ts';
import { memoryStore } from '../../src/store/index.ts';
import type { StateStore } from '../../src/store/types.ts';

const config = withCluster(undefined, { name: 'sim', sim: { scenarios: ['unmanaged-pods'] } });

describe('responder run --mode approve, on a terminal', () => {
  let clusters: ClusterConnector;
  let store: StateStore;
  let plan: Report;
  beforeEach(async () => {
    vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    clusters = clusterConnector();
    store = memoryStore();
    const trigger = {
      source: 'cli' as const,
      receivedAt: new Date().toISOString(),
      deliveryKey: `cli:${Math.random()}`,
      alerts: [],
      cluster: 'sim',
      runbook: 'unmanaged-pods',
      mode: 'approve' as const,
      actor: localUser(),
    };
    [plan] = (await runLocally(trigger, config, store, { clusters })).reports as [Report];
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    await clusters.close();
  });
  const context = () => ({ config, store, clusters, output: 'json' as const });
  const planned = (report: Report) => report.steps.flatMap((s) => s.plan.map((p) => p.target));
  const evicted = (report: Report | undefined) =>
    (report?.steps ?? [])
      .flatMap((s) => s.done)
      .filter((d) => d.outcome === 'done')
      .map((d) => d.target);

  it('"yes" applies exactly the plan shown, re-checked against the cluster', async () => {
    expect(plan.verdict).toBe('needs-approval');
    const questions: string[] = [];
    const ask = async (question: string) => {
      questions.push(question);
      return 'yes';
    };
    const decision = await confirmPlan(plan, ask, context());
    // The sim's unmanaged pods: 3 evictions the plan may make, 1 a disruption budget blocks.
    expect(questions[0]).toBe(
      'Apply these 3 actions to sim (1 blocked: not asked, not tried)? Only "yes" applies them: ',
    );
    expect(decision.applied).toBe(true);
    const done = evicted(decision.output?.reports[0]);
    expect(done.length).toBeGreaterThan(0);
    for (const target of done) expect(planned(plan)).toContain(target);
    const record = await store.runs.get(plan.runId);
    expect(record?.decision).toMatchObject({ outcome: 'approved', by: localUser().id });
  }, 60_000);

  it('anything but "yes" applies nothing and records the rejection', async () => {
    const decision = await confirmPlan(plan, async () => 'y', context());
    expect(decision).toEqual({ applied: false, message: 'not applied: the plan was not confirmed' });
    expect((await store.runs.get(plan.runId))?.decision).toMatchObject({ outcome: 'rejected' });
    // A later "yes" cannot resurrect it.
    const later = await confirmPlan(plan, async () => 'yes', context()).catch((error: Error) => error);
    expect(later).toBeInstanceOf(Error);
    expect(String(later)).toMatch(/not waiting for approval/);
  }, 60_000);

  it('without a terminal it refuses, and nothing is changed', async () => {
    const decision = await confirmPlan(plan, undefined, context());
    expect(decision.applied).toBe(false);
    expect(decision.message).toMatch(/approve mode asks on a terminal, and there is none/);
    expect((await store.runs.get(plan.runId))?.decision).toBeUndefined();
  }, 60_000);
});
