import { describe, expect, it } from 'vitest';
import type { Job } from '../../../src/queue/job.ts';
import { type AdmitContext, admit, recordResolved } from '../../../src/routing/admit.ts';
import { routeTrigger } from '../../../src/routing/route.ts';
import { memoryStore } from '../../../src/store/index.ts';
import type { RunRecord } from '../../../src/store/types.ts';
import {
  alert,
  alertmanagerTrigger,
  counterIds,
  RECEIVED_AT,
  RUNBOOK_IDS,
  recordingQueue,
  testClock,
  testConfig,
  waitingRun as waitingRecord,
} from './fixtures.ts';

function setup(config = testConfig()) {
  const clock = testClock();
  const queue = recordingQueue();
  const store = memoryStore();
  const newId = counterIds();
  const context: AdmitContext = { config, store, queue, now: clock.now };
  /** Routes `trigger` afresh (new job ids, same dedupe keys), as each delivery of it would be. */
  const route = (trigger = unmanagedPodsAlert()) =>
    routeTrigger(trigger, { config, runbooks: RUNBOOK_IDS, newId });
  return { clock, queue, store, context, route };
}

function unmanagedPodsAlert() {
  return alertmanagerTrigger(
    [
      alert('CiliumUnmanagedPods', { cluster: 'prod-eu' }, 1),
      alert('CiliumEndpointMissing', { cluster: 'prod-eu' }, 2),
    ],
    { cluster: 'prod-eu' },
  );
}

describe('admit', () => {
  it('records and queues a new job', async () => {
    const { context, queue, store, route } = setup();
    const [job] = route().jobs as [Job];
    expect(await admit([job], context)).toEqual({ queued: [job], duplicates: [], absorbed: [], refused: [] });
    expect(queue.sent).toEqual([job]);
    expect(await store.runs.list()).toEqual([
      {
        runId: job.id,
        jobId: job.id,
        cluster: 'prod-eu',
        runbook: 'unmanaged-pods',
        mode: 'approve',
        source: 'alertmanager',
        actor: 'alertmanager',
        reason: 'CiliumUnmanagedPods, CiliumEndpointMissing',
        deliveryKey: job.trigger.deliveryKey,
        trigger: {
          receivedAt: job.trigger.receivedAt,
          actor: job.trigger.actor,
          alerts: job.trigger.alerts,
          alertCount: 2,
        },
        params: {},
        status: 'queued',
        plan: [],
        actions: [],
        queuedAt: RECEIVED_AT,
      } satisfies RunRecord,
    ]);
  });

  it("gives the claim back when the queue is down, so the sender's retry runs", async () => {
    const { context, route, queue } = setup();
    const down = { ...context, queue: { send: async () => Promise.reject(new Error('queue unavailable')) } };
    await expect(admit(route().jobs, down)).rejects.toThrow('queue unavailable');
    expect((await admit(route().jobs, context)).queued).toHaveLength(1);
    expect(queue.sent).toHaveLength(1);
  });

  it('queues exactly one of 100 identical deliveries admitted at once', async () => {
    const { context, queue, store, route } = setup();
    const jobs = Array.from({ length: 100 }, () => route().jobs[0] as Job);
    expect(new Set(jobs.map((job) => job.id)).size).toBe(100);

    const admissions = await Promise.all(jobs.map((job) => admit([job], context)));

    const queued = admissions.flatMap((a) => a.queued);
    const duplicates = admissions.flatMap((a) => a.duplicates);
    expect(queued).toHaveLength(1);
    expect(duplicates).toHaveLength(99);
    expect(queue.sent.map((job) => job.id)).toEqual([queued[0]?.id]);
    // Duplicates leave no audit record behind: one run, one record.
    expect((await store.runs.list()).map((record) => record.runId)).toEqual([queued[0]?.id]);
  });

  it('queues each (cluster, runbook) of one delivery, and each only once across redeliveries', async () => {
    const { context, queue, route } = setup();
    const everything = alertmanagerTrigger([alert('CiliumCheckEverything', { cluster: 'sim' })]);
    const first = await admit(route(everything).jobs, context);
    expect(first.queued.map((job) => job.runbook)).toEqual(RUNBOOK_IDS);
    const again = await admit(route(everything).jobs, context);
    expect(again).toEqual({ queued: [], duplicates: expect.any(Array), absorbed: [], refused: [] });
    expect(again.duplicates).toHaveLength(RUNBOOK_IDS.length);
    expect(queue.sent).toHaveLength(RUNBOOK_IDS.length);
  });

  it('lets the same delivery run again once the dedupe window has passed', async () => {
    const { context, queue, clock, route } = setup();
    expect((await admit(route().jobs, context)).queued).toHaveLength(1);

    clock.advanceSeconds(15 * 60 - 1);
    expect((await admit(route().jobs, context)).duplicates).toHaveLength(1);

    clock.advanceSeconds(1);
    expect((await admit(route().jobs, context)).queued).toHaveLength(1);
    expect(queue.sent).toHaveLength(2);
  });

  it('remembers deliveries for the configured dedupeMinutes', async () => {
    const config = testConfig({ limits: { dedupeMinutes: 60 } });
    const { context, queue, clock, route } = setup(config);
    await admit(route().jobs, context);
    clock.advanceSeconds(59 * 60);
    expect((await admit(route().jobs, context)).duplicates).toHaveLength(1);
    clock.advanceSeconds(60);
    expect((await admit(route().jobs, context)).queued).toHaveLength(1);
    expect(queue.sent).toHaveLength(2);
  });

  it('keeps the record of a resumed run (its plan and first report), says who approved what in it, and queues the resume', async () => {
    const { context, queue, store } = setup();
    const waiting: RunRecord = waitingRecord({
      jobId: 'job-0',
      plan: ['evict:shop/web-1', 'evict:shop/web-2'],
    });
    await store.runs.put(waiting);
    const resume: Job = {
      id: 'job-9',
      runbook: 'unmanaged-pods',
      cluster: 'prod-eu',
      mode: 'approve',
      params: {},
      trigger: unmanagedPodsAlert(),
      dedupeKey: 'approval|run-1',
      resume: { runId: 'run-1', approved: ['evict:shop/web-1'] },
    };
    expect(await admit([resume], context)).toEqual({
      queued: [resume],
      duplicates: [],
      absorbed: [],
      refused: [],
    });
    expect(queue.sent).toEqual([resume]);
    // The decision is in the record before the job can start, so no worker's write races it.
    expect(await store.runs.list()).toEqual([
      {
        ...waiting,
        decision: {
          outcome: 'approved',
          by: resume.trigger.actor.id,
          at: context.now().toISOString(),
          approved: ['evict:shop/web-1'],
        },
      },
    ]);
  });

  it('records resolved alerts as resolved runs without queueing anything', async () => {
    const { context, queue, store, route } = setup();
    const resolved = route(
      alertmanagerTrigger([alert('CiliumUnmanagedPods', { cluster: 'prod-eu' })], { status: 'resolved' }),
    ).resolved;
    const records = await recordResolved(resolved, context);
    expect(records.map((r) => [r.cluster, r.runbook, r.status, r.finishedAt])).toEqual([
      ['prod-eu', 'unmanaged-pods', 'resolved', RECEIVED_AT],
    ]);
    expect(await store.runs.list()).toEqual(records);
    expect(queue.sent).toEqual([]);
  });

  it("says a resolved alert in the problem's chat thread", async () => {
    const { context, route } = setup();
    const said: { channel: string; threadKey: string; text: string }[] = [];
    const chat = {
      postReport: async () => ({}),
      postText: async (target: { channel: string; threadKey: string }, text: string) => {
        said.push({ ...target, text });
        return {};
      },
    };
    const resolved = route(
      alertmanagerTrigger([alert('CiliumUnmanagedPods', { cluster: 'prod-eu' })], { status: 'resolved' }),
    ).resolved;
    await recordResolved(resolved, { ...context, chat, defaultChannel: '#fallback' });
    expect(said).toEqual([
      {
        channel: context.config.clusters[0]?.channel ?? '#fallback',
        threadKey: 'prod-eu/unmanaged-pods',
        text: 'Resolved: CiliumUnmanagedPods on prod-eu (nothing to run).',
      },
    ]);
  });
});
