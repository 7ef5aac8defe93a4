import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RUNBOOKS } from '../../runbooks/index.ts';
import { createWorker, type Worker } from '../../src/app/worker.ts';
import { RESOURCES } from '../../src/cluster/types.ts';
import type { Job } from '../../src/queue/job.ts';
import type { RunRecord } from '../../src/store/types.ts';
import { type SimUnderTest, startScenario } from '../helpers/sim-access.ts';
import {
  APPROVER,
  type AppUnderTest,
  appOf,
  appUnderTest,
  BYSTANDER,
  commandBody,
  fixtureJson,
  signedHeaders,
} from './harness.ts';

/**
 * Approvals end to end: a Slack command asks for a plan on the simulated cluster, Slack's signed
 * button presses decide it through the HTTP app, and the worker runs whatever was queued.
 */
describe('approvals, from the button to the cluster', () => {
  let scenario: SimUnderTest;
  let t: AppUnderTest;
  let worker: Worker;
  let handled = 0;
  let commands = 0;

  beforeEach(async () => {
    scenario = await startScenario(['unmanaged-pods']);
    // The simulated pods are as old as the real clock says: the app runs on it too.
    t = appUnderTest({ start: new Date() });
    worker = createWorker(appOf(t.dispatch).ports, {
      runbooks: RUNBOOKS,
      connect: async () => scenario.access,
    });
    handled = 0;
  });
  afterEach(() => scenario.sim.close());

  async function post(path: string, body: string) {
    const response = await t.app.request(path, {
      method: 'POST',
      headers: signedHeaders(body, t.clock.now()),
      body,
    });
    return (await response.json()) as { text: string };
  }

  /** Runs every job queued since the last call, as the worker would; returns how many. */
  async function drain(): Promise<number> {
    const fresh = t.queue.sent.slice(handled);
    handled = t.queue.sent.length;
    for (const job of fresh as Job[]) await worker.run(job);
    return fresh.length;
  }

  /** An approver asks for a plan; the worker makes it; the run waits for approval. */
  async function plan(): Promise<RunRecord> {
    commands += 1;
    await post(
      '/slack/commands',
      commandBody({
        text: 'run unmanaged-pods mode=approve',
        user_id: APPROVER,
        trigger_id: `t-${commands}`,
      }),
    );
    expect(await drain()).toBe(1);
    const [record] = await t.store.runs.list({ limit: 1 });
    if (record?.verdict !== 'needs-approval') throw new Error(`no plan waits: ${record?.summary?.diagnosis}`);
    return record;
  }

  function press(user: string, decision: 'approve' | 'reject', run: RunRecord, keys: string[]) {
    const payload = fixtureJson<{
      user: { id: string };
      actions: { action_id: string; value: string; action_ts: string }[];
    }>('triggers/slack-block-actions.json');
    payload.user.id = user;
    const [action] = payload.actions as [{ action_id: string; value: string; action_ts: string }];
    action.action_id = decision;
    action.value = JSON.stringify({ runId: run.runId, approved: keys });
    action.action_ts = `${Date.now()}.${Math.random().toString().slice(2, 8)}`;
    return post('/slack/interactions', new URLSearchParams({ payload: JSON.stringify(payload) }).toString());
  }

  async function podUids(): Promise<Set<string>> {
    const pods = await scenario.access.kube.list(RESOURCES.pods, { project: 'metadata' });
    return new Set(pods.map((pod) => pod.metadata.uid));
  }

  /** `evict-pod:<namespace>/<name>` → the pod's uid now. */
  async function uidOf(key: string): Promise<string> {
    const [namespace, name] = key.slice('evict-pod:'.length).split('/') as [string, string];
    return (await scenario.access.kube.get(RESOURCES.pods, namespace, name)).metadata.uid;
  }

  it('approve runs exactly the approved part of the plan, once however often it is clicked; a non-approver is refused', async () => {
    const run = await plan();
    expect(run.plan.length).toBeGreaterThan(2);
    const [first, second, ...rest] = run.plan as [string, string, ...string[]];
    const approvedUids = [await uidOf(first), await uidOf(second)];
    const restUids = await Promise.all(rest.map(uidOf));

    const refused = await press(BYSTANDER, 'approve', run, [first, second]);
    expect(refused.text).toBe(`<@${BYSTANDER}> may not approve unmanaged-pods runs`);
    expect(await drain()).toBe(0);

    const approved = await press(APPROVER, 'approve', run, [first, second]);
    expect(approved.text).toMatch(new RegExp(`^Approved by <@${APPROVER}>: running the 2 approved actions`));
    const again = await press(APPROVER, 'approve', run, [first, second]);
    expect(again.text).not.toMatch(/^Approved/);
    expect(await drain()).toBe(1);

    const uids = await podUids();
    expect(approvedUids.filter((uid) => uids.has(uid))).toEqual([]);
    expect(restUids.every((uid) => uids.has(uid))).toBe(true);
  });

  it('reject runs nothing, and a plan past its expiry cannot run', async () => {
    const rejected = await plan();
    const before = await podUids();
    expect((await press(APPROVER, 'reject', rejected, rejected.plan)).text).toBe(
      `Rejected by <@${APPROVER}>: nothing was done.`,
    );
    expect(await drain()).toBe(0);
    expect(await podUids()).toEqual(before);

    const stale = await plan();
    t.clock.advance(31 * 60_000);
    const expired = await press(APPROVER, 'approve', stale, stale.plan);
    expect(expired.text).toMatch(
      /^Expired: the plan of run .* expired after 30 min: run it again for a fresh plan$/,
    );
    expect(await drain()).toBe(0);
    expect(await podUids()).toEqual(before);
  });
});
