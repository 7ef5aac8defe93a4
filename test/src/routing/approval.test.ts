import { describe, expect, it } from 'vitest';
import { admit } from '../../../src/routing/admit.ts';
import { decideApproval, isApprover, mayApprove } from '../../../src/routing/approval.ts';
import { memoryStore } from '../../../src/store/index.ts';
import type { RunRecord } from '../../../src/store/types.ts';
import {
  approvalTrigger,
  counterIds,
  recordingQueue,
  testClock,
  testConfig,
  waitingRun as waitingRecord,
} from './fixtures.ts';

const PLAN = ['evict:shop/web-1', 'evict:shop/web-2', 'evict:shop/api-7'];

const waitingRun = (overrides: Partial<RunRecord> = {}) => waitingRecord({ plan: PLAN, ...overrides });

async function setup(record: RunRecord | undefined = waitingRun()) {
  const store = memoryStore();
  if (record) await store.runs.put(record);
  const clock = testClock();
  const context = { config: testConfig(), runs: store.runs, newId: counterIds('resume'), now: clock.now };
  return { store, context, clock };
}

describe('mayApprove', () => {
  it('allows the users listed for the runbook and the groups listed for every runbook', () => {
    const config = testConfig();
    expect(mayApprove(config, 'unmanaged-pods', ['U012AB3CD'])).toBe(true);
    expect(mayApprove(config, 'host-identity', ['U012AB3CD'])).toBe(false);
    expect(mayApprove(config, 'host-identity', ['U999', 'S0614TZR7'])).toBe(true);
    expect(mayApprove(config, 'unmanaged-pods', ['U999'])).toBe(false);
  });
});

describe('decideApproval', () => {
  it('resumes the run with its original params and only the approved keys that are in its plan', async () => {
    const { context } = await setup();
    const trigger = approvalTrigger('U012AB3CD', {
      runId: 'run-1',
      decision: 'approve',
      approved: ['evict:shop/api-7', 'evict:kube-system/coredns-1', 'evict:shop/web-1'],
    });
    expect(await decideApproval(trigger, context)).toEqual({
      kind: 'resume',
      job: {
        id: 'resume-1',
        runbook: 'unmanaged-pods',
        cluster: 'prod-eu',
        mode: 'approve',
        // The record's params: the approved plan is re-checked under the same settings.
        params: { gracePeriodSeconds: 120 },
        trigger,
        dedupeKey: 'approval|run-1',
        resume: { runId: 'run-1', approved: ['evict:shop/api-7', 'evict:shop/web-1'] },
      },
    });
  });

  it('accepts a member of an approving Slack user group', async () => {
    const { context } = await setup();
    const trigger = approvalTrigger('U0OTHER', { runId: 'run-1', decision: 'approve', approved: PLAN });
    expect((await decideApproval(trigger, context)).kind).toBe('refused');
    const directory = {
      groupsOf: async (_user: string, groups: readonly string[]) => groups.filter((g) => g === 'S0614TZR7'),
    };
    expect((await decideApproval(trigger, { ...context, directory })).kind).toBe('resume');
  });

  it('refuses someone who is not an approver, naming them', async () => {
    const { context } = await setup();
    const trigger = approvalTrigger('U0INTRUDER', { runId: 'run-1', decision: 'approve', approved: PLAN });
    expect(await decideApproval(trigger, context)).toEqual({
      kind: 'refused',
      reason: '<@U0INTRUDER> may not approve unmanaged-pods runs',
    });
  });

  it('refuses a non-approver’s rejection too', async () => {
    const { context } = await setup();
    const trigger = approvalTrigger('U0INTRUDER', { runId: 'run-1', decision: 'reject', approved: PLAN });
    expect((await decideApproval(trigger, context)).kind).toBe('refused');
  });

  it('refuses a run that is not waiting for approval', async () => {
    const { context } = await setup(waitingRun({ verdict: 'remediated' }));
    const trigger = approvalTrigger('U012AB3CD', { runId: 'run-1', decision: 'approve', approved: PLAN });
    expect(await decideApproval(trigger, context)).toEqual({
      kind: 'refused',
      reason: 'run run-1 is not waiting for approval (remediated)',
    });
    const running = await setup(waitingRun({ verdict: undefined, status: 'running' }));
    expect(await decideApproval(trigger, running.context)).toEqual({
      kind: 'refused',
      reason: 'run run-1 is not waiting for approval (running)',
    });
  });

  it('refuses a run whose approved resume is running now (its record still says needs-approval)', async () => {
    const { context } = await setup(waitingRun({ status: 'running' }));
    const trigger = approvalTrigger('U012AB3CD', { runId: 'run-1', decision: 'approve', approved: PLAN });
    expect(await decideApproval(trigger, context)).toEqual({
      kind: 'refused',
      reason: 'run run-1 is not waiting for approval (running)',
    });
  });

  it('refuses a run it does not know, and a trigger that is no approval', async () => {
    const { context } = await setup(undefined);
    const trigger = approvalTrigger('U012AB3CD', { runId: 'run-404', decision: 'approve', approved: PLAN });
    expect(await decideApproval(trigger, context)).toEqual({ kind: 'refused', reason: 'no run run-404' });
    const { approval: _, ...notApproval } = trigger;
    expect(await decideApproval(notApproval, context)).toEqual({
      kind: 'refused',
      reason: 'not an approval',
    });
  });

  it('refuses a plan older than its expiry (30 min by default), and says so', async () => {
    const { context, clock } = await setup();
    const trigger = approvalTrigger('U012AB3CD', { runId: 'run-1', decision: 'approve', approved: PLAN });
    clock.advanceSeconds(19 * 60);
    expect((await decideApproval(trigger, context)).kind).toBe('resume');
    clock.advanceSeconds(2 * 60);
    expect(await decideApproval(trigger, context)).toEqual({
      kind: 'refused',
      reason:
        'the plan of run run-1 was made at 2024-05-01T11:50:00.000Z and expired after 30 min: run it again for a fresh plan',
    });
  });

  it('still takes an approval exactly when the plan turns 30 minutes old, and none a second later', async () => {
    const { context, clock } = await setup();
    const trigger = approvalTrigger('U012AB3CD', { runId: 'run-1', decision: 'approve', approved: PLAN });
    // Made at 11:50, the clock reads 12:00.
    clock.advanceSeconds(20 * 60);
    expect((await decideApproval(trigger, context)).kind).toBe('resume');
    clock.advanceSeconds(1);
    expect((await decideApproval(trigger, context)).kind).toBe('refused');
  });

  it('takes an approval typed at the terminal from the person there, approver or not', async () => {
    const { context } = await setup();
    const local = {
      ...approvalTrigger('local:someone', { runId: 'run-1', decision: 'approve', approved: PLAN }),
      source: 'cli' as const,
    };
    expect((await decideApproval(local, context)).kind).toBe('resume');
  });

  it('asks the directory only about the approving groups of that runbook, and not at all without any', async () => {
    const asked: string[][] = [];
    const directory = {
      groupsOf: async (_user: string, groups: readonly string[]) => {
        asked.push([...groups]);
        return [];
      },
    };
    const config = testConfig({ approvers: { 'unmanaged-pods': ['U012AB3CD', 'S0ONCALL'], '*': ['S0ALL'] } });
    expect(await isApprover(config, 'U0OTHER', 'unmanaged-pods', directory)).toBe(false);
    expect(await isApprover(config, 'U0OTHER', 'host-identity', directory)).toBe(false);
    expect(asked).toEqual([['S0ONCALL', 'S0ALL'], ['S0ALL']]);
    const usersOnly = testConfig({ approvers: { 'unmanaged-pods': ['U012AB3CD'] } });
    expect(await isApprover(usersOnly, 'U0OTHER', 'unmanaged-pods', directory)).toBe(false);
    expect(await isApprover(usersOnly, 'U0OTHER', undefined, directory)).toBe(false);
    expect(asked).toHaveLength(2);
  });

  it("refuses an approval of nothing in the run's plan", async () => {
    const { context } = await setup();
    const trigger = approvalTrigger('U012AB3CD', {
      runId: 'run-1',
      decision: 'approve',
      approved: ['evict:kube-system/aws-node-x1'],
    });
    expect(await decideApproval(trigger, context)).toEqual({
      kind: 'refused',
      reason: "nothing approved is in the run's plan",
    });
  });

  it('rejects when an approver rejects', async () => {
    const { context } = await setup();
    const trigger = approvalTrigger('U012AB3CD', { runId: 'run-1', decision: 'reject', approved: PLAN });
    expect(await decideApproval(trigger, context)).toEqual({ kind: 'rejected', runId: 'run-1' });
  });

  it('gives a double click the same dedupe key, so only one resume is admitted', async () => {
    const { context, store } = await setup();
    const first = approvalTrigger(
      'U012AB3CD',
      { runId: 'run-1', decision: 'approve', approved: PLAN },
      'slack-action:click-1',
    );
    const second = approvalTrigger(
      'U012AB3CD',
      { runId: 'run-1', decision: 'approve', approved: PLAN },
      'slack-action:click-2',
    );
    const decisions = await Promise.all([decideApproval(first, context), decideApproval(second, context)]);
    const jobs = decisions.map((decision) => (decision.kind === 'resume' ? decision.job : undefined));
    expect(jobs[0]?.dedupeKey).toBe('approval|run-1');
    expect(jobs[1]?.dedupeKey).toBe(jobs[0]?.dedupeKey);
    expect(jobs[1]?.id).not.toBe(jobs[0]?.id);

    const queue = recordingQueue();
    const admitContext = { config: context.config, store, queue, now: testClock().now };
    const admissions = await Promise.all(jobs.map((job) => admit(job ? [job] : [], admitContext)));
    expect(admissions.flatMap((a) => a.queued)).toHaveLength(1);
    expect(admissions.flatMap((a) => a.duplicates)).toHaveLength(1);
    expect(queue.sent.map((job) => job.resume)).toEqual([{ runId: 'run-1', approved: PLAN }]);
  });
});
