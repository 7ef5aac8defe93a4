import { describe, expect, it } from 'vitest';
import type { Job } from '../../../src/queue/job.ts';
import { admit } from '../../../src/routing/admit.ts';
import { routeTrigger } from '../../../src/routing/route.ts';
import { memoryStore } from '../../../src/store/index.ts';
import type { RunRecord, StateStore } from '../../../src/store/types.ts';
import { closeLeftRuns } from '../../../src/worker/left-behind.ts';
import {
  alert,
  alertmanagerTrigger,
  counterIds,
  RUNBOOK_IDS,
  recordingQueue,
  testClock,
  testConfig,
} from '../routing/fixtures.ts';
import { run } from '../store/state-store-suite.ts';

const NOW = new Date('2026-03-02T11:00:00.000Z');

/**
 * The state a process killed between the index write and the row leaves (dynalite writes the
 * index first): the listing shows a queued run whose record was never written.
 */
function indexAhead(store: StateStore, listedOnly: RunRecord): StateStore {
  return {
    ...store,
    runs: {
      ...store.runs,
      async list(options) {
        const rows = await store.runs.list(options);
        return rows.some((r) => r.runId === listedOnly.runId) ? rows : [listedOnly, ...rows];
      },
    },
  };
}

describe('runs a stopped process left behind', () => {
  it('closes a queued run as interrupted, never ran, and a running one as interrupted with its writes', async () => {
    const store = memoryStore();
    await store.runs.put(run('run-1', 'prod', '2026-03-02T10:00:00.000Z'));
    await store.runs.put(
      run('run-2', 'prod', '2026-03-02T10:01:00.000Z', {
        status: 'running',
        owner: 'job-run-2/d1 (pid 7 on laptop)',
        startedAt: '2026-03-02T10:01:01.000Z',
        actions: ['evict-pod shop/web-1: sending'],
      }),
    );
    await store.runs.put(run('run-3', 'prod', '2026-03-02T10:02:00.000Z', { status: 'done' }));
    const closed = await closeLeftRuns({ store, now: () => NOW }, () => true);
    expect(closed.map((r) => [r.runId, r.status])).toEqual([
      ['run-2', 'interrupted'],
      ['run-1', 'interrupted'],
    ]);
    expect(await store.runs.get('run-1')).toMatchObject({
      status: 'interrupted',
      error: 'never ran: the process that queued it stopped first (nothing was done)',
      finishedAt: NOW.toISOString(),
    });
    expect((await store.runs.get('run-2'))?.error).toMatch(
      /^the worker \(pid 7 on laptop\) stopped during this run .*its writes: evict-pod shop\/web-1: sending/,
    );
    expect((await store.runs.get('run-3'))?.status).toBe('done');
    expect(await closeLeftRuns({ store, now: () => NOW }, () => true)).toEqual([]);
  });

  it('closes a queued run the index lists but whose record was never written, so it is never listed as queued again', async () => {
    const store = memoryStore();
    const lost = run('run-lost', 'prod', '2026-03-02T10:00:00.000Z');
    const closed = await closeLeftRuns({ store: indexAhead(store, lost), now: () => NOW }, () => true);
    expect(closed.map((r) => [r.runId, r.status, r.error])).toEqual([
      ['run-lost', 'interrupted', 'never ran: the process that queued it stopped first (nothing was done)'],
    ]);
    expect((await store.runs.list()).map((r) => [r.runId, r.status])).toEqual([['run-lost', 'interrupted']]);
  });

  it('rewrites a record the index shows as queued while the record itself moved on', async () => {
    const store = memoryStore();
    const done = run('run-1', 'prod', '2026-03-02T10:00:00.000Z', { status: 'done' });
    await store.runs.put(done);
    let listed = 0;
    const stale: StateStore = {
      ...store,
      runs: {
        ...store.runs,
        async list() {
          listed++;
          return [{ ...done, status: 'queued' }];
        },
        async put(record) {
          await store.runs.put({ ...record, actions: ['rewritten'] });
        },
      },
    };
    expect(await closeLeftRuns({ store: stale, now: () => NOW }, () => true)).toEqual([]);
    expect(listed).toBe(1);
    expect(await store.runs.get('run-1')).toEqual({ ...done, actions: ['rewritten'] });
  });

  it('gives back the pair of an automatic run left behind, and closes the follow-up it owed as never ran', async () => {
    const config = testConfig();
    const store = memoryStore();
    const clock = testClock();
    const newId = counterIds();
    const queue = recordingQueue();
    const send = (n: number) =>
      admit(
        routeTrigger(
          alertmanagerTrigger([alert('CiliumHostMarkRuleMissing', { severity: 'critical' }, n)], {
            cluster: 'prod-eu',
            deliveryKey: `alertmanager:group-${n}-firing`,
          }),
          { config, runbooks: RUNBOOK_IDS, newId },
        ).jobs,
        { config, store, queue, now: clock.now },
      );
    await send(0);
    expect((await send(1)).absorbed).toHaveLength(1);
    const [first] = queue.sent as [Job];

    const closed = await closeLeftRuns({ store, now: clock.now }, () => true);
    expect(closed.map((r) => [r.runId, r.status])).toEqual([
      [first.id, 'interrupted'],
      [`${first.id}-follow-up`, 'interrupted'],
    ]);
    expect((await store.runs.get(`${first.id}-follow-up`))?.reason).toMatch(
      /^CiliumHostMarkRuleMissing \(follow-up of run job-1: 1 notification came/,
    );
    // The pair rests: the next alert in the window runs at once.
    expect((await send(2)).queued).toHaveLength(1);
  });
});
