import { describe, expect, it } from 'vitest';
import { RUNBOOKS } from '../../../runbooks/index.ts';
import { createWorker } from '../../../src/app/worker.ts';
import type { ChatSink } from '../../../src/chat/types.ts';
import type { Job } from '../../../src/queue/job.ts';
import { finishPair, pairKey } from '../../../src/routing/follow-up.ts';
import {
  ALERTMANAGER_TOKEN,
  type AppUnderTest,
  appUnderTest,
  CLUSTER,
  commandBody,
  signedHeaders,
  unmanagedAlert,
} from '../../functions/harness.ts';
import { testPorts } from './test-ports.ts';

async function postAlert(t: AppUnderTest): Promise<Job> {
  const alert = await t.app.request('/alerts/alertmanager', {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${ALERTMANAGER_TOKEN}` },
    body: JSON.stringify(unmanagedAlert()),
  });
  expect(alert.status).toBe(202);
  return t.queue.sent.at(-1) as Job;
}

/** The run of `job` ended as its worker ends it: its record done, its pair given back. */
async function ended(t: AppUnderTest, job: Job) {
  const record = await t.store.runs.get(job.id);
  await t.store.runs.put({ ...(record as NonNullable<typeof record>), status: 'done' });
  const key = pairKey(job) as string;
  await finishPair(job.id, key, { store: t.store, now: t.clock.now, windowSeconds: 900 });
}

/** A person's `/cilium run unmanaged-pods`, each a new request; what Slack shows them. */
async function ask(t: AppUnderTest): Promise<string> {
  const body = commandBody({ trigger_id: `t-${Math.random()}` });
  const response = await t.app.request('/slack/commands', {
    method: 'POST',
    headers: signedHeaders(body, t.clock.now()),
    body,
  });
  return ((await response.json()) as { text: string }).text;
}

describe('a Slack request for a run that is going on', () => {
  it('is answered at once with that run, who started it and where its report goes; nothing is queued', async () => {
    const t = appUnderTest();
    const job = await postAlert(t);
    const record = await t.store.runs.get(job?.id as string);
    const startedAt = t.clock.now().toISOString();
    // The worker took the run: the lease is held and the record says running.
    await t.store.leases.acquire(`${CLUSTER}|unmanaged-pods`, `${job?.id}/d-1 (pid 7)`, 60, t.clock.now());
    await t.store.runs.put({ ...(record as NonNullable<typeof record>), status: 'running', startedAt });

    expect(await ask(t)).toBe(
      `Not queued: unmanaged-pods on ${CLUSTER} is already running (run ${job?.id}, started by alertmanager (${record?.reason}) at ${startedAt}). Its report will be posted in #${CLUSTER}; ask again once it has ended for a run of your own.`,
    );
    expect(t.queue.sent).toHaveLength(1);
    expect(await t.store.runs.list()).toHaveLength(1);

    // The run ended: its lease and its pair given back.
    await t.store.leases.release(`${CLUSTER}|unmanaged-pods`, `${job?.id}/d-1 (pid 7)`);
    await ended(t, job);
    expect(await ask(t)).toMatch(/^Queued unmanaged-pods on prod-eu \(dry-run\)/);
    expect(t.queue.sent).toHaveLength(2);
  });

  it('meeting an alert’s run still queued (not started), is answered at once with that run; once it ended, is queued', async () => {
    const t = appUnderTest();
    const job = await postAlert(t);
    const record = await t.store.runs.get(job.id);
    t.clock.advance(5_000);
    expect(await ask(t)).toBe(
      `Not queued: unmanaged-pods on ${CLUSTER} is already queued (run ${job.id}, queued by alertmanager (${record?.reason}) at ${record?.queuedAt}). Its report will be posted in #${CLUSTER}; ask again once it has ended for a run of your own.`,
    );
    expect(t.queue.sent).toEqual([job]);
    expect(await t.store.runs.list()).toHaveLength(1);

    await ended(t, job);
    expect(await ask(t)).toMatch(/^Queued unmanaged-pods on prod-eu \(dry-run\)/);
    expect(t.queue.sent).toHaveLength(2);
  });

  it('meeting a pair still held by a run that ended (its finisher stopped first), is queued', async () => {
    const t = appUnderTest();
    const job = await postAlert(t);
    const record = await t.store.runs.get(job.id);
    await t.store.runs.put({ ...(record as NonNullable<typeof record>), status: 'interrupted' });
    expect(await ask(t)).toMatch(/^Queued unmanaged-pods on prod-eu \(dry-run\)/);
  });

  it('that still meets another run at the worker (both queued at once) is told so in the thread, never dropped in silence', async () => {
    const t = appUnderTest();
    expect(await ask(t)).toMatch(/^Queued/);
    const mine = t.queue.sent[0] as Job;
    const posted: { channel: string; threadKey: string; text: string }[] = [];
    const chat: ChatSink = {
      postReport: async () => ({}),
      postText: async (target, text) => {
        posted.push({ ...target, text });
        return {};
      },
    };
    const ports = testPorts({ store: t.store, queue: t.queue, chat, now: t.clock.now });
    const worker = createWorker(ports, {
      runbooks: RUNBOOKS,
      connect: async () => {
        throw new Error('a duplicate reaches no cluster');
      },
    });
    // An alert's run, queued at the same moment, took the pair first.
    await t.store.leases.acquire(`${CLUSTER}|unmanaged-pods`, 'job-9/d-1', 60, t.clock.now());

    const { record } = await worker.run(mine);
    expect(record.status).toBe('duplicate');
    expect(posted).toEqual([
      {
        channel: `#${CLUSTER}`,
        threadKey: `${CLUSTER}/unmanaged-pods`,
        text: `Not run: unmanaged-pods on ${CLUSTER} asked by ${record.actor} (run ${mine.id}): run job-9 of it was already in progress, and its report is posted in this thread. Ask again once it has ended for a run of your own.`,
      },
    ]);
    // A redelivery of the same request says nothing twice.
    await worker.run(mine);
    expect(posted).toHaveLength(1);
  });
});
