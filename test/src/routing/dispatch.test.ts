import { describe, expect, it } from 'vitest';
import { RUNBOOK_CATALOG } from '../../../runbooks/catalog.ts';
import { type DispatchContext, dispatchTrigger } from '../../../src/routing/dispatch.ts';
import { memoryStore } from '../../../src/store/index.ts';
import type { RunRecord } from '../../../src/store/types.ts';
import {
  alert,
  alertmanagerTrigger,
  approvalTrigger,
  counterIds,
  RUNBOOK_IDS,
  recordingQueue,
  testClock,
  testConfig,
  waitingRun as waitingRecord,
} from './fixtures.ts';

const PLAN = ['evict:shop/web-1', 'evict:shop/web-2'];

const WAITING: RunRecord = waitingRecord({ jobId: 'run-1', plan: PLAN });

async function setup() {
  const clock = testClock();
  const queue = recordingQueue();
  const store = memoryStore();
  await store.runs.put(WAITING);
  const context: DispatchContext = {
    config: testConfig(),
    store,
    queue,
    runbooks: RUNBOOK_IDS,
    runbookInfo: RUNBOOK_CATALOG,
    now: clock.now,
    newId: counterIds(),
  };
  return { clock, queue, store, context };
}

const approve = (actor = 'U012AB3CD', key = `slack-action:${actor}-approve`) =>
  approvalTrigger(actor, { runId: 'run-1', decision: 'approve', approved: PLAN }, key);
const reject = (actor = 'U012AB3CD', key = `slack-action:${actor}-reject`) =>
  approvalTrigger(actor, { runId: 'run-1', decision: 'reject', approved: PLAN }, key);

describe('dispatchTrigger', () => {
  it('routes, admits and records an alert group in one go', async () => {
    const { context, queue, store } = await setup();
    const firing = alertmanagerTrigger([alert('CiliumUnmanagedPods', { cluster: 'prod-us' })]);
    const result = await dispatchTrigger(firing, context);
    expect(result.queued.map((job) => `${job.cluster}/${job.runbook}`)).toEqual(['prod-us/unmanaged-pods']);
    expect(queue.sent).toHaveLength(1);
    expect(await dispatchTrigger(firing, context)).toMatchObject({ queued: [], duplicates: [{}] });

    const resolved = alertmanagerTrigger([alert('CiliumUnmanagedPods', { cluster: 'prod-us' })], {
      status: 'resolved',
    });
    expect((await dispatchTrigger(resolved, context)).resolved).toHaveLength(1);
    expect(queue.sent).toHaveLength(1);
    const records = await store.runs.list({ cluster: 'prod-us' });
    expect(records.map((r) => r.status).sort()).toEqual(['queued', 'resolved']);
  });

  it('resumes an approved run once, however often the button is clicked', async () => {
    const { context, queue } = await setup();
    const results = await Promise.all(
      [approve(), approve(), approve()].map((t) => dispatchTrigger(t, context)),
    );
    expect(results.flatMap((r) => r.queued)).toHaveLength(1);
    expect(results.flatMap((r) => r.duplicates)).toHaveLength(2);
    expect(queue.sent.map((job) => job.resume)).toEqual([{ runId: 'run-1', approved: PLAN }]);
  });

  it('says why an approval was refused and queues nothing', async () => {
    const { context, queue } = await setup();
    expect(await dispatchTrigger(approve('U0INTRUDER'), context)).toEqual({
      queued: [],
      duplicates: [],
      absorbed: [],
      resolved: [],
      skipped: [],
      refused: ['<@U0INTRUDER> may not approve unmanaged-pods runs'],
    });
    expect(queue.sent).toEqual([]);
  });

  it('records who rejected the plan', async () => {
    const { context, queue, store } = await setup();
    expect((await dispatchTrigger(reject(), context)).skipped).toEqual(['run run-1 rejected']);
    expect(queue.sent).toEqual([]);
    expect(await store.runs.get('run-1')).toMatchObject({
      status: 'done',
      error: 'plan rejected by u012ab3cd',
      decision: { outcome: 'rejected', by: 'U012AB3CD', at: expect.any(String) },
    });
  });

  it('never resumes a rejected run, even when an approve click comes after the dedupe window', async () => {
    const { context, queue, clock } = await setup();
    await dispatchTrigger(reject(), context);
    const soon = await dispatchTrigger(approve('U012AB3CD'), context);
    clock.advanceSeconds(24 * 3600);
    const later = await dispatchTrigger(approve('U012AB3CD', 'slack-action:next-day'), context);
    expect(soon.queued).toEqual([]);
    expect(later.queued).toEqual([]);
    expect(later.refused).toEqual(['run run-1 is not waiting for approval (plan rejected by u012ab3cd)']);
    expect(queue.sent).toEqual([]);
  });

  it('does not mark a run rejected once its approval has been admitted', async () => {
    const { context, queue, store } = await setup();
    expect((await dispatchTrigger(approve(), context)).queued).toHaveLength(1);
    const late = await dispatchTrigger(reject('U012AB3CD'), context);
    expect(late.skipped).toEqual(['run run-1 was already decided']);
    // The audit record names the approver, when, and what they approved; nothing else changed.
    expect(await store.runs.get('run-1')).toEqual({
      ...WAITING,
      decision: {
        outcome: 'approved',
        by: 'U012AB3CD',
        byName: 'u012ab3cd',
        at: '2024-05-01T12:00:00.000Z',
        approved: PLAN,
      },
    });
    expect(queue.sent).toHaveLength(1);
  });
});

describe('an alert storm over two clusters', () => {
  it('queues one run per cluster, and every other notification waits for its follow-up', async () => {
    const { context, queue } = await setup();
    const clusters = ['prod-eu', 'prod-us'];
    // 40 notifications, each its own Alertmanager group (its own delivery), alternating clusters.
    const storm = Array.from({ length: 40 }, (_, n) => {
      const cluster = clusters[n % 2] as string;
      return alertmanagerTrigger([alert('CiliumUnmanagedPods', { cluster }, n)], {
        cluster,
        deliveryKey: `alertmanager:group-${n}-firing`,
      });
    });

    const results = await Promise.all(storm.map((trigger) => dispatchTrigger(trigger, context)));

    expect(queue.sent.map((job) => `${job.cluster}/${job.runbook}`).sort()).toEqual([
      'prod-eu/unmanaged-pods',
      'prod-us/unmanaged-pods',
    ]);
    expect(results.flatMap((result) => result.absorbed)).toHaveLength(38);
    expect(results.flatMap((result) => result.duplicates)).toEqual([]);
  });
});
