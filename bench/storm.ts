import pLimit from 'p-limit';
import { startLocalServer } from '../cli/serve/local-server.ts';
import { handleRecord } from '../functions/worker-batch.ts';
import { RUNBOOK_CATALOG, RUNBOOK_IDS } from '../runbooks/catalog.ts';
import { RUNBOOKS } from '../runbooks/index.ts';
import { startSim } from '../sim/index.ts';
import { createApp } from '../src/app/app.ts';
import { DEFAULT_CHANNEL } from '../src/app/ports.ts';
import { createWorker } from '../src/app/worker.ts';
import type { ChatSink } from '../src/chat/types.ts';
import { parseConfig } from '../src/config/load.ts';
import { SILENT } from '../src/engine/run.ts';
import { dynamoStore } from '../src/store/index.ts';
import { parseAlertmanager } from '../src/triggers/index.ts';
import { sqsRecord } from '../test/functions/harness.ts';
import { simAccess } from '../test/helpers/sim-access.ts';
import { growingGroup, type StormOutcome, stormOutcome } from '../test/helpers/storm.ts';
import { startDynaliteProcess } from './dynalite-process.ts';
import type { Figures } from './figures.ts';

/** Three storms of 2,000 notifications each, over 20 clusters: 100 growing groups per cluster. */
const STORMS = 3;
const NOTIFICATIONS = 2_000;
const CLUSTERS = 20;
/** Notifications in flight at once, as Alertmanager's many groups send them. */
const IN_FLIGHT = 20;
const TOKEN = 'bench-alertmanager-token';
const QUIET: ChatSink = { postReport: async () => ({}), postText: async () => ({}) };

const clusters = Array.from({ length: CLUSTERS }, (_, n) => `cluster-${n}`);
const config = parseConfig(
  [
    'clusters:',
    ...clusters.flatMap((name) => [`  - name: ${name}`, '    sim: { scenarios: [healthy] }']),
    'routes:',
    '  - match: { alertname: CiliumUnmanagedPods }',
    '    runbook: unmanaged-pods',
    '    mode: auto',
  ].join('\n'),
  'bench-storm.yaml',
  { runbooks: RUNBOOK_IDS },
);

/** The n-th notification of a storm: cluster by cluster, each cluster's group one alert bigger than its last. */
const notification = (n: number) =>
  growingGroup(clusters[n % CLUSTERS] as string, 'CiliumUnmanagedPods', Math.floor(n / CLUSTERS));

/** One storm through `responder serve`'s server (HTTP, the in-process queue and worker, memory state). */
async function localServerStorm(access: ReturnType<typeof simAccess>): Promise<StormOutcome> {
  const server = await startLocalServer({
    config,
    chat: QUIET,
    secrets: { alertmanagerToken: TOKEN },
    connect: async () => access,
  });
  try {
    const limit = pLimit(IN_FLIGHT);
    await Promise.all(
      Array.from({ length: NOTIFICATIONS }, (_, n) =>
        limit(async () => {
          const response = await fetch(`${server.url}/alerts/alertmanager`, {
            method: 'POST',
            headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
            body: JSON.stringify(notification(n)),
          });
          if (response.status !== 202) throw new Error(`notification ${n}: ${response.status}`);
        }),
      ),
    );
    await server.queue.idle();
    return stormOutcome(await server.app.ports.store.runs.list());
  } finally {
    await server.close();
  }
}

/**
 * One storm through the SQS path: admission as the http function does it, every message delivered
 * to two workers at once (SQS delivers at least once; each worker is a Lambda container of its own,
 * with the worker's batch handler), a failed delivery coming back after, state on DynamoDB
 * (dynalite in its own process).
 */
async function sqsStorm(access: ReturnType<typeof simAccess>, store: ReturnType<typeof dynamoStore>) {
  const messages: string[] = [];
  let ids = 0;
  const ports = {
    config,
    runbookIds: RUNBOOK_IDS,
    runbookInfo: RUNBOOK_CATALOG,
    store,
    queue: { send: async (job: unknown) => void messages.push(JSON.stringify(job)) },
    chat: QUIET,
    defaultChannel: DEFAULT_CHANNEL,
    now: () => new Date(),
    newId: () => `job-${++ids}`,
    log: SILENT,
  };
  const app = createApp(ports);
  const workers = [0, 1].map(() => createWorker(ports, { runbooks: RUNBOOKS, connect: async () => access }));
  const deliver = (body: string, receiveCount: number) =>
    Promise.all(
      workers.map((worker) =>
        handleRecord(sqsRecord(body, receiveCount), {
          run: (job) => worker.run(job),
          deadLetter: (letter) => worker.deadLettered(letter),
          maxAttempts: 3,
        }).then(
          () => undefined,
          () => body,
        ),
      ),
    );
  let delivered = 0;
  const pump = async () => {
    while (delivered < messages.length) {
      const bodies = messages.slice(delivered);
      delivered = messages.length;
      const failed = (await Promise.all(bodies.map((body) => deliver(body, 1)))).flat();
      for (const body of failed) if (body) await deliver(body, 2);
    }
  };
  const limit = pLimit(IN_FLIGHT);
  const pumping: Promise<void>[] = [];
  await Promise.all(
    Array.from({ length: NOTIFICATIONS }, (_, n) =>
      limit(async () => {
        await app.dispatch(parseAlertmanager(notification(n), { receivedAt: new Date() }));
        if (n % 100 === 0) pumping.push(pump());
      }),
    ),
  );
  await Promise.all(pumping);
  await pump();
  return stormOutcome(await store.runs.list());
}

function figures(path: string, outcomes: readonly StormOutcome[]): Figures {
  const size = `${STORMS} storms of ${NOTIFICATIONS.toLocaleString('en-US')} growing groups, ${CLUSTERS} clusters`;
  return {
    [`${path}: runs per (cluster, runbook), worst pair of ${size}`]: {
      value: Math.max(...outcomes.map((o) => o.mostRunsPerPair)),
      runs: outcomes.length,
      atMost: 2,
    },
    [`${path}: runs of one pair that overlapped`]: {
      value: outcomes.reduce((sum, o) => sum + o.overlaps, 0),
      runs: outcomes.length,
      atMost: 0,
    },
    [`${path}: pairs that ran`]: { value: Math.min(...outcomes.map((o) => o.pairs)), runs: outcomes.length },
  };
}

/** `npm run bench` section: runs per pair and overlaps under growing-group storms, both paths, one run. */
export async function stormBench(): Promise<Figures> {
  const sim = await startSim({ scenarios: ['healthy'] });
  const access = simAccess(sim);
  const dynamo = await startDynaliteProcess();
  try {
    const local: StormOutcome[] = [];
    const sqs: StormOutcome[] = [];
    for (let storm = 0; storm < STORMS; storm++) {
      local.push(await localServerStorm(access));
      sqs.push(
        await sqsStorm(access, dynamoStore({ client: dynamo.client, table: await dynamo.createTable() })),
      );
    }
    return {
      ...figures('local server', local),
      ...figures('SQS path, 2 workers, each message delivered twice, state on dynalite', sqs),
    };
  } finally {
    dynamo.stop();
    await sim.close();
  }
}
