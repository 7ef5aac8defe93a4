import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RUNBOOKS } from '../../../runbooks/index.ts';
import { createApp } from '../../../src/app/app.ts';
import { createWorker } from '../../../src/app/worker.ts';
import { consoleSink } from '../../../src/chat/console.ts';
import { parseConfig } from '../../../src/config/load.ts';
import type { Job } from '../../../src/queue/job.ts';
import { memoryQueue } from '../../../src/queue/memory.ts';
import { dynamoStore, memoryStore } from '../../../src/store/index.ts';
import type { StateStore } from '../../../src/store/types.ts';
import { parseAlertmanager } from '../../../src/triggers/index.ts';
import { collector, RUNBOOK_IDS } from '../../functions/harness.ts';
import { type SimUnderTest, startScenario } from '../../helpers/sim-access.ts';
import { growingGroup, stormOutcome } from '../../helpers/storm.ts';
import { type LocalDynamoDB, startLocalDynamoDB } from '../store/local-dynamodb.ts';
import { testPorts } from './test-ports.ts';

const CLUSTERS = ['prod-eu', 'prod-us', 'staging'];
const NOTIFICATIONS = 40;

const config = parseConfig(
  [
    'clusters:',
    ...CLUSTERS.flatMap((name) => [`  - name: ${name}`, '    sim: { scenarios: [healthy] }']),
    'routes:',
    '  - match: { alertname: CiliumUnmanagedPods }',
    '    runbook: unmanaged-pods',
    '    mode: auto',
  ].join('\n'),
  'storm.yaml',
  { runbooks: RUNBOOK_IDS },
);

let scenario: SimUnderTest;
let dynamo: LocalDynamoDB;
beforeAll(async () => {
  [scenario, dynamo] = await Promise.all([startScenario(['healthy']), startLocalDynamoDB()]);
});
afterAll(async () => {
  await Promise.all([scenario?.sim.close(), dynamo?.stop()]);
});

/**
 * The local server's wiring (the app, the in-process queue, its worker), each run held at the
 * cluster a little so alerts keep coming while it runs. `failFollowUpSends` makes that many sends
 * of a follow-up fail, as a worker dying between handing the pair over and queueing it would.
 */
function responder(store: StateStore, failFollowUpSends = 0) {
  let failures = failFollowUpSends;
  const ports = testPorts({
    store,
    queue: { send: async () => {} },
    chat: consoleSink(collector().stream),
    config,
  });
  const queue = memoryQueue({
    retryDelayMs: 5,
    handle: (job: Job) => worker.run(job),
    onDead: (letter) => worker.deadLettered(letter),
  });
  const worker = createWorker(
    {
      ...ports,
      queue: {
        send: async (job) => {
          if (job.trigger.followUp && failures-- > 0) throw new Error('the worker stopped before sending');
          await queue.send(job);
        },
      },
    },
    {
      runbooks: RUNBOOKS,
      connect: async () => {
        await sleep(30);
        return scenario.access;
      },
    },
  );
  return { app: createApp({ ...ports, queue }), queue };
}

const stores: [string, () => Promise<StateStore>][] = [
  ['memory', async () => memoryStore()],
  [
    'DynamoDB (dynalite)',
    async () => dynamoStore({ client: dynamo.client, table: await dynamo.createTable() }),
  ],
];

describe.each(stores)('a storm of growing alert groups, state in %s', (_, makeStore) => {
  it(`${NOTIFICATIONS} notifications on each of ${CLUSTERS.length} clusters: one run and one follow-up per pair, never at once`, async () => {
    const store = await makeStore();
    const { app, queue } = responder(store);
    const dispatched = [];
    for (let n = 0; n < NOTIFICATIONS; n++)
      dispatched.push(
        ...(await Promise.all(
          CLUSTERS.map((cluster) =>
            app.dispatch(
              parseAlertmanager(growingGroup(cluster, 'CiliumUnmanagedPods', n), { receivedAt: new Date() }),
            ),
          ),
        )),
      );
    await queue.idle();

    const records = await store.runs.list();
    expect(stormOutcome(records)).toEqual({ pairs: CLUSTERS.length, mostRunsPerPair: 2, overlaps: 0 });
    expect(dispatched.flatMap((d) => d.queued)).toHaveLength(CLUSTERS.length);
    expect(records.map((r) => r.status)).toEqual(records.map(() => 'done'));
    // Each follow-up lists the alerts it absorbed and says what it follows.
    for (const cluster of CLUSTERS) {
      const [followUp, first] = records.filter((r) => r.cluster === cluster);
      expect(followUp?.reason).toMatch(
        new RegExp(`^CiliumUnmanagedPods \\(follow-up of run ${first?.runId}: \\d+ notifications came while`),
      );
      expect(Date.parse(followUp?.startedAt ?? '')).toBeGreaterThanOrEqual(
        Date.parse(first?.finishedAt ?? ''),
      );
    }
  }, 120_000);

  it('a worker that dies between handing the pair over and queueing the follow-up: its redelivery queues it', async () => {
    const store = await makeStore();
    const { app, queue } = responder(store, 1);
    for (let n = 0; n < 5; n++)
      await app.dispatch(
        parseAlertmanager(growingGroup('prod-eu', 'CiliumUnmanagedPods', n), { receivedAt: new Date() }),
      );
    await queue.idle();

    const records = await store.runs.list();
    expect(records.map((r) => [r.status, r.reason.includes('follow-up')])).toEqual([
      ['done', true],
      ['done', false],
    ]);
    expect(stormOutcome(records)).toEqual({ pairs: 1, mostRunsPerPair: 2, overlaps: 0 });
    expect(queue.deadLetters).toEqual([]);
  }, 120_000);
});
