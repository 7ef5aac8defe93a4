import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { handleRecord } from '../../../functions/worker-batch.ts';
import { RUNBOOKS } from '../../../runbooks/index.ts';
import { type App, createApp } from '../../../src/app/app.ts';
import { createWorker, type Worker } from '../../../src/app/worker.ts';
import { consoleSink } from '../../../src/chat/console.ts';
import type { ChatSink } from '../../../src/chat/types.ts';
import { RESOURCES } from '../../../src/cluster/types.ts';
import { SILENT } from '../../../src/engine/run.ts';
import type { Job } from '../../../src/queue/job.ts';
import { memoryQueue } from '../../../src/queue/memory.ts';
import { slackSink } from '../../../src/slack/sink.ts';
import { memoryStore } from '../../../src/store/index.ts';
import type { StateStore } from '../../../src/store/types.ts';
import { parseAlertmanager } from '../../../src/triggers/index.ts';
import { collector, jobRecord, recordingQueue, unmanagedAlert } from '../../functions/harness.ts';
import { type SimUnderTest, startScenario } from '../../helpers/sim-access.ts';
import { scenarioAndSlack } from './scenario-and-slack.ts';
import { testPorts } from './test-ports.ts';

interface Rig {
  app: App;
  worker: Worker;
  store: StateStore;
  jobs: Job[];
}

function rig(scenario: SimUnderTest, chat: ChatSink = consoleSink(collector().stream)): Rig {
  const store = memoryStore();
  const queue = recordingQueue();
  const ports = testPorts({
    store,
    queue,
    chat,
  });
  const worker = createWorker(ports, { runbooks: RUNBOOKS, connect: async () => scenario.access });
  return { app: createApp(ports), worker, store, jobs: queue.sent };
}

const evictions = (actions: readonly string[]) => actions.filter((a) => /^evict-pod .*: done/.test(a));

describe('a job delivered more than once', () => {
  let scenario: SimUnderTest;
  beforeEach(async () => {
    scenario = await startScenario(['unmanaged-pods']);
  });
  afterEach(() => scenario.sim.close());

  it('SQS delivering the same job twice evicts once, and the record keeps the first delivery’s evictions', async () => {
    const { app, worker, store, jobs } = rig(scenario);
    await app.dispatch(parseAlertmanager(unmanagedAlert(), { receivedAt: new Date() }));
    const [job] = jobs as [Job];
    expect(job.mode).toBe('auto');
    const deps = { run: (j: Job) => worker.run(j), deadLetter: async () => {}, maxAttempts: 3, log: SILENT };

    await handleRecord(jobRecord(job, 1), deps);
    const first = await store.runs.get(job.id);
    const evicted = evictions(first?.actions ?? []);
    expect(evicted.length).toBeGreaterThan(0);

    await handleRecord(jobRecord(job, 2), deps);
    const after = await store.runs.get(job.id);
    expect(after).toEqual(first);
    expect(evictions(after?.actions ?? [])).toEqual(evicted);
    const planted = scenario.plan.unmanagedPods?.evictable ?? [];
    const uids = new Set(
      (
        await scenario.access.kube.list(RESOURCES.pods, {
          project: 'metadata',
        })
      ).map((p) => p.metadata.uid),
    );
    // Each planted pod was evicted at most once: their replacements (new uids) were left alone.
    expect(planted.filter((pod) => !uids.has(pod.uid))).toHaveLength(evicted.length);
  });

  it('a delivery that finds its run still marked running (the worker died) reports it interrupted and runs nothing', async () => {
    const { app, worker, store, jobs } = rig(scenario);
    await app.dispatch(parseAlertmanager(unmanagedAlert(), { receivedAt: new Date() }));
    const [job] = jobs as [Job];
    const queued = await store.runs.get(job.id);
    if (!queued) throw new Error('admission recorded no run');
    await store.runs.put({ ...queued, status: 'running', startedAt: new Date().toISOString() });

    const { record } = await worker.run(job);

    expect(record.status).toBe('interrupted');
    expect(record.error).toMatch(/not run again, since it may have acted/);
    expect(evictions(record.actions)).toEqual([]);
    expect(scenario.plan.unmanagedPods?.evictable.length).toBeGreaterThan(0);
    const pods = await scenario.access.kube.list(RESOURCES.pods, { project: 'metadata' });
    const uids = new Set(pods.map((p) => p.metadata.uid));
    expect(scenario.plan.unmanagedPods?.evictable.every((pod) => uids.has(pod.uid))).toBe(true);
  });
});

describe('a chat post that fails after its retries', () => {
  const env = scenarioAndSlack(['unmanaged-pods']);

  it('goes back through the queue and is posted once Slack recovers; the run acts once', async () => {
    const failure = { status: 500, body: { ok: false, error: 'internal_error' } };
    // Slack fails the first delivery's post and its one retry, then recovers.
    env.slack.script('chat.postMessage', failure);
    env.slack.script('chat.postMessage', failure);
    const chat = slackSink({
      token: 'xoxb-test',
      slackApiUrl: env.slack.url,
      retryConfig: { retries: 1, minTimeout: 0, maxTimeout: 0 },
    });
    const { app, worker, store, jobs } = rig(env.scenario, chat);
    const queue = memoryQueue({ handle: (job) => worker.run(job), retryDelayMs: 5 });
    await app.dispatch(parseAlertmanager(unmanagedAlert(), { receivedAt: new Date() }));
    const [job] = jobs as [Job];

    await queue.send(job);
    await queue.idle();

    expect(queue.deadLetters).toEqual([]);
    const posts = env.slack.calls.filter((c) => c.method === 'chat.postMessage');
    expect(posts).toHaveLength(3);
    expect(posts[2]?.params.text).toMatch(/unmanaged-pods/);
    const record = await store.runs.get(job.id);
    // Where the report went, so the console links to its Slack thread.
    expect(record).toMatchObject({
      status: 'done',
      posted: true,
      thread: { channel: expect.stringMatching(/^C\w+$/), ts: expect.stringMatching(/^\d+\.\d+$/) },
    });
    expect(evictions(record?.actions ?? []).length).toBeGreaterThan(0);
  });
});
