import { describe, expect, it } from 'vitest';
import type { Job } from '../../../src/queue/job.ts';
import { admit } from '../../../src/routing/admit.ts';
import {
  admitToPair,
  finishPair,
  LISTED_ALERTS,
  pairHolder,
  pairKey,
  releasePair,
} from '../../../src/routing/follow-up.ts';
import { routeTrigger } from '../../../src/routing/route.ts';
import { memoryStore } from '../../../src/store/index.ts';
import {
  alert,
  alertmanagerTrigger,
  counterIds,
  RUNBOOK_IDS,
  recordingQueue,
  scheduleTrigger,
  slackCommand,
  testClock,
  testConfig,
} from './fixtures.ts';

const WINDOW_SECONDS = 15 * 60;

function setup() {
  const config = testConfig();
  const clock = testClock();
  const store = memoryStore();
  const queue = recordingQueue();
  const newId = counterIds();
  const context = { config, store, queue, now: clock.now };
  const pairs = { store, now: clock.now, windowSeconds: WINDOW_SECONDS };
  /** The n-th notification of a growing group on prod-eu: alerts 0..n, each send a new delivery. */
  const grown = (n: number) =>
    alertmanagerTrigger(
      Array.from({ length: n + 1 }, (_, i) =>
        alert('CiliumHostMarkRuleMissing', { severity: 'critical' }, i),
      ),
      { cluster: 'prod-eu', deliveryKey: `alertmanager:group-${n}-firing` },
    );
  const jobOf = (trigger: ReturnType<typeof grown>) =>
    routeTrigger(trigger, { config, runbooks: RUNBOOK_IDS, newId }).jobs[0] as Job;
  const send = (n: number) => admit([jobOf(grown(n))], context);
  return { clock, store, queue, pairs, send, jobOf, grown, context };
}

describe('a storm of growing alert groups on one pair', () => {
  it('queues one run; later alerts wait for one follow-up that lists them; after that, duplicates', async () => {
    const { queue, pairs, send, store } = setup();
    expect((await send(0)).queued).toHaveLength(1);
    const [first] = queue.sent as [Job];
    const key = pairKey(first) as string;
    for (let n = 1; n <= 5; n++) expect((await send(n)).absorbed).toHaveLength(1);
    expect(queue.sent).toHaveLength(1);

    const next = (await finishPair(first.id, key, pairs)) as Job;
    expect(next.id).toBe(`${first.id}-follow-up`);
    expect(next.trigger.followUp).toEqual({ after: first.id, notifications: 5 });
    // Each absorbed alert once, however many notifications carried it.
    expect(next.trigger.alerts.map((a) => a.fingerprint)).toEqual(
      Array.from({ length: 6 }, (_, i) => `ciliumhostmarkrulemissing-${i}`),
    );
    expect([next.cluster, next.runbook, next.mode]).toEqual([first.cluster, first.runbook, first.mode]);
    expect(next.dedupeKey).toBe(`follow-up|${first.id}`);
    expect(next.trigger.deliveryKey).toBe(`follow-up:${first.id}`);

    // While the follow-up is queued or running, and after it ends within the window: nothing more.
    expect((await send(6)).duplicates).toHaveLength(1);
    expect(await finishPair(next.id, key, pairs)).toBeUndefined();
    const after = await send(7);
    expect([after.queued, after.absorbed, after.duplicates.length]).toEqual([[], [], 1]);
    expect(queue.sent).toHaveLength(1);
    // Nothing recorded for absorbed or duplicate alerts: the audit trail has the one run.
    expect(await store.runs.list()).toHaveLength(1);
  });

  it('starts the pair again once the window since its last change has passed', async () => {
    const { clock, queue, pairs, send } = setup();
    await send(0);
    const [first] = queue.sent as [Job];
    await send(1);
    const next = (await finishPair(first.id, pairKey(first) as string, pairs)) as Job;
    clock.advanceSeconds(60);
    await finishPair(next.id, pairKey(first) as string, pairs);
    clock.advanceSeconds(WINDOW_SECONDS - 1);
    expect((await send(2)).duplicates).toHaveLength(1);
    clock.advanceSeconds(1);
    expect((await send(3)).queued).toHaveLength(1);
  });

  it('a run that ends with no alerts absorbed leaves the pair resting: the next alert in the window runs at once as its follow-up', async () => {
    const { queue, pairs, send } = setup();
    await send(0);
    const [first] = queue.sent as [Job];
    const key = pairKey(first) as string;
    expect(await finishPair(first.id, key, pairs)).toBeUndefined();
    expect((await send(1)).queued).toHaveLength(1);
    const second = queue.sent[1] as Job;
    expect((await send(2)).duplicates).toHaveLength(1);
    expect(await finishPair(second.id, key, pairs)).toBeUndefined();
    expect((await send(3)).duplicates).toHaveLength(1);
  });

  it('hands the same follow-up to a finisher asked again (a redelivery), and nothing once it ended or to a stranger', async () => {
    const { queue, pairs, send } = setup();
    await send(0);
    const [first] = queue.sent as [Job];
    const key = pairKey(first) as string;
    await send(1);
    expect(await finishPair('job-stranger', key, pairs)).toBeUndefined();
    const next = await finishPair(first.id, key, pairs);
    expect(await finishPair(first.id, key, pairs)).toEqual(next);
    expect(await finishPair('job-stranger', key, pairs)).toBeUndefined();
    await finishPair((next as Job).id, key, pairs);
    expect(await finishPair(first.id, key, pairs)).toBeUndefined();
  });

  it('two finishers of one run racing hand over one follow-up', async () => {
    const { queue, pairs, send } = setup();
    await send(0);
    const [first] = queue.sent as [Job];
    for (let n = 1; n <= 3; n++) await send(n);
    const handed = await Promise.all(
      Array.from({ length: 5 }, () => finishPair(first.id, pairKey(first) as string, pairs)),
    );
    expect(new Set(handed.map((job) => job?.id))).toEqual(new Set([`${first.id}-follow-up`]));
    expect(handed.every((job) => job?.trigger.followUp?.notifications === 3)).toBe(true);
  });

  it(`lists at most ${LISTED_ALERTS} alerts, counting every notification`, async () => {
    const { queue, pairs, send } = setup();
    await send(0);
    const [first] = queue.sent as [Job];
    await send(LISTED_ALERTS + 20);
    await send(LISTED_ALERTS + 30);
    const next = (await finishPair(first.id, pairKey(first) as string, pairs)) as Job;
    expect(next.trigger.alerts).toHaveLength(LISTED_ALERTS);
    expect(next.trigger.followUp?.notifications).toBe(2);
  });

  it('the record a follow-up is queued with says what it follows and what came meanwhile', async () => {
    const { queue, pairs, send } = setup();
    await send(0);
    const [first] = queue.sent as [Job];
    await send(1);
    const next = (await finishPair(first.id, pairKey(first) as string, pairs)) as Job;
    const { queuedRecord } = await import('../../../src/routing/admit.ts');
    expect(queuedRecord(next, new Date()).reason).toBe(
      `CiliumHostMarkRuleMissing (follow-up of run ${first.id}: 1 notification came while it was queued or running)`,
    );
  });

  it('a job that could not be queued gives its pair back', async () => {
    const { queue, pairs, send, context, jobOf, grown } = setup();
    await send(0);
    const [first] = queue.sent as [Job];
    const key = pairKey(first) as string;
    await releasePair('job-stranger', key, pairs);
    expect((await send(1)).absorbed).toHaveLength(1);
    await releasePair(first.id, key, pairs);
    expect(await finishPair(first.id, key, pairs)).toBeUndefined();
    // The pair rests after its first run; the follow-up that could not be queued gives it back.
    const failing = { ...context, queue: { send: async () => Promise.reject(new Error('SQS is down')) } };
    await expect(admit([jobOf(grown(2))], failing)).rejects.toThrow('SQS is down');
    expect((await send(3)).queued).toHaveLength(1);
    expect((await send(4)).duplicates).toHaveLength(1);
  });
});

describe('a pair’s state as it is kept', () => {
  it('says run, absorbed, then duplicate once its follow-up was made', async () => {
    const { pairs, jobOf, grown } = setup();
    const key = 'prod-eu|host-identity|auto';
    const first = jobOf(grown(0));
    expect(await admitToPair(first, key, pairs)).toBe('run');
    expect(await admitToPair(jobOf(grown(1)), key, pairs)).toBe('absorbed');
    await finishPair(first.id, key, pairs);
    expect(await admitToPair(jobOf(grown(2)), key, pairs)).toBe('duplicate');
  });

  it('keeps each absorbed alert once, beside a template job that carries none (the item stays small)', async () => {
    const { pairs, jobOf, grown, store } = setup();
    const key = 'prod-eu|host-identity|auto';
    await admitToPair(jobOf(grown(0)), key, pairs);
    await admitToPair(jobOf(grown(30)), key, pairs);
    const absorbed = (await store.pairs.get(key, pairs.now()))?.absorbed;
    expect(absorbed?.alerts).toHaveLength(31);
    expect((absorbed?.job as Job | undefined)?.trigger.alerts).toEqual([]);
  });

  it('finishing or releasing a pair that has no state (never held, or its window ended) changes nothing', async () => {
    const { pairs, jobOf, grown, store } = setup();
    const key = 'prod-eu|host-identity|auto';
    expect(await finishPair('job-1', key, pairs)).toBeUndefined();
    await releasePair('job-1', key, pairs);
    expect(await store.pairs.get(key, pairs.now())).toBeUndefined();
    expect(await admitToPair(jobOf(grown(0)), key, pairs)).toBe('run');
  });

  it('a pair that keeps changing under every write is given up on after 60 rounds, saying which', async () => {
    const { pairs, jobOf, grown, store } = setup();
    let puts = 0;
    const busy = {
      ...pairs,
      store: {
        ...store,
        pairs: {
          get: store.pairs.get,
          put: async () => {
            puts++;
            return false;
          },
        },
      },
    };
    await expect(admitToPair(jobOf(grown(0)), 'prod-eu|host-identity|auto', busy)).rejects.toThrow(
      'the runs of prod-eu|host-identity|auto kept changing under 60 attempts; try again',
    );
    expect(puts).toBe(60);
  });
});

describe('who holds a (cluster, runbook), for a person asking', () => {
  it('is the job whose run holds its pair in any mode, queued or running; nobody once the runs ended', async () => {
    const { pairs, store, jobOf, grown } = setup();
    expect(await pairHolder('prod-eu', 'host-identity', pairs)).toBeUndefined();
    for (const mode of ['approve', 'dry-run', 'auto'] as const) {
      const job = { ...jobOf(grown(0)), mode };
      const key = pairKey(job) as string;
      expect(key).toBe(`prod-eu|host-identity|${mode}`);
      await admitToPair(job, key, pairs);
      expect(await pairHolder('prod-eu', 'host-identity', pairs)).toBe(job.id);
      await finishPair(job.id, key, pairs);
      // Resting (its run ended in the window): it holds nobody.
      expect(await store.pairs.get(key, pairs.now())).toMatchObject({ followedUp: false });
      expect(await pairHolder('prod-eu', 'host-identity', pairs)).toBeUndefined();
    }
    expect(await pairHolder('prod-eu', 'unmanaged-pods', pairs)).toBeUndefined();
    expect(await pairHolder('staging', 'host-identity', pairs)).toBeUndefined();
  });
});

describe('which jobs take part', () => {
  it('alerts, alarms and schedules share their pair; people and approvals never', () => {
    const { jobOf, grown } = setup();
    const job = jobOf(grown(0));
    expect(pairKey(job)).toBe('prod-eu|host-identity|auto');
    expect(pairKey({ ...job, trigger: scheduleTrigger('nightly') })).toBe('prod-eu|host-identity|auto');
    expect(pairKey({ ...job, trigger: { ...job.trigger, source: 'cloudwatch' } })).toBe(
      'prod-eu|host-identity|auto',
    );
    expect(pairKey({ ...job, trigger: slackCommand({}) })).toBeUndefined();
    expect(pairKey({ ...job, trigger: { ...job.trigger, source: 'cli' } })).toBeUndefined();
    expect(pairKey({ ...job, resume: { runId: 'run-1', approved: [] } })).toBeUndefined();
  });
});
