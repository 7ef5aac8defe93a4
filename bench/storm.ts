import pLimit from 'p-limit';
import pRetry from 'p-retry';
import { startLocalServer } from '../cli/serve/local-server.ts';
import { RUNBOOK_IDS } from '../runbooks/catalog.ts';
import { startSim } from '../sim/index.ts';
import type { ChatSink } from '../src/chat/types.ts';
import { parseConfig } from '../src/config/load.ts';
import { dynamoStore } from '../src/store/index.ts';
import { startFakeAws } from '../test/helpers/fake-aws.ts';
import {
  alertmanagerEvent,
  type Bundled,
  deliverToEach,
  type StandIns,
  synthRehearsal,
} from '../test/helpers/rehearsal.ts';
import { shippedRules } from '../test/helpers/shipped-rbac.ts';
import { simAccess } from '../test/helpers/sim-access.ts';
import { growingGroup, type StormOutcome, stormOutcome } from '../test/helpers/storm.ts';
import { startFakeSlack } from '../test/src/slack/fake-slack.ts';
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
const ROUTE = [
  'routes:',
  '  - match: { alertname: CiliumUnmanagedPods }',
  '    runbook: unmanaged-pods',
  '    mode: auto',
];
/** The local server's clusters: the simulator, directly. */
const config = parseConfig(
  [
    'clusters:',
    ...clusters.flatMap((name) => [`  - name: ${name}`, '    sim: { scenarios: [healthy] }']),
    ...ROUTE,
  ].join('\n'),
  'bench-storm.yaml',
  { runbooks: RUNBOOK_IDS },
);
/** The rehearsed stack's clusters: EKS clusters its worker may describe, each answered by the simulator. */
const REHEARSAL_CONFIG = [
  'clusters:',
  ...clusters.flatMap((name) => [`  - name: ${name}`, `    eks: { name: ${name}, region: eu-west-1 }`]),
  ...ROUTE,
].join('\n');

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
          // Alertmanager sends a notification again when its connection fails (a kept-alive socket
          // the server closed as it was reused): the same delivery, deduplicated on arrival.
          const response = await pRetry(
            () =>
              fetch(`${server.url}/alerts/alertmanager`, {
                method: 'POST',
                headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
                body: JSON.stringify(notification(n)),
              }),
            { retries: 3, minTimeout: 100 },
          );
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
 * The bundles' own logs (a line per request) would drown the bench's; their outcome is in the audit
 * trail. Errors still show: a job that could not be dead-lettered says why only there.
 */
const QUIET_LOGS = { POWERTOOLS_LOG_LEVEL: 'ERROR' };

/**
 * The stack as deployed, rehearsed offline (as test/cdk/rehearsal.test.ts does): synthesized with
 * its real bundles, which run here with the template's environment against stand-ins for SQS,
 * EKS and Secrets Manager, dynalite (in its own process) for DynamoDB, a local Slack, and the
 * simulator as every cluster, reached with EKS tokens and the shipped RBAC.
 */
async function startRehearsal(sim: Awaited<ReturnType<typeof startSim>>) {
  sim.auth.acceptEksTokens('cilium-responder-worker', shippedRules());
  const rehearsal = synthRehearsal(REHEARSAL_CONFIG);
  const [mainArn, main] =
    [...rehearsal.secrets.entries()].find(([arn]) => arn.includes('ResponderSecrets')) ?? [];
  const generated = JSON.parse(main as string);
  // As the README says: the Slack fields put beside the generated alertmanagerToken.
  rehearsal.secrets.set(
    mainArn as string,
    JSON.stringify({ ...generated, slackSigningSecret: 'bench', slackBotToken: 'xoxb-bench' }),
  );
  const dynamo = await startDynaliteProcess();
  const slack = await startFakeSlack();
  const aws = await startFakeAws({
    cluster: { endpoint: sim.url, caData: Buffer.from(sim.caPem).toString('base64') },
    describable: rehearsal.describable,
    secrets: rehearsal.secrets,
  });
  const standIns: StandIns = { aws: aws.url, dynamodb: () => dynamo.endpoint, slack: slack.url };
  const jobs = () => aws.sent.get(rehearsal.jobsQueue(standIns)) ?? [];
  return {
    token: generated.alertmanagerToken as string,
    maxReceiveCount: rehearsal.maxReceiveCount,
    deadLetters: () => aws.sent.get(rehearsal.deadLetters(standIns)) ?? [],
    dynamo,
    jobs,
    load: (name: string, table: string) => rehearsal.load(name, table, standIns, QUIET_LOGS),
    async stop() {
      dynamo.stop();
      await Promise.all([aws.close(), slack.close()]);
    },
  };
}

/**
 * One storm through the rehearsal's SQS path: the bundled http function admits each notification
 * into the jobs queue; two bundled workers (each a container of its own) get every message at
 * once, and a failed delivery comes back after (test/helpers/rehearsal.ts, deliverToEach).
 */
async function rehearsedStorm(
  rig: Awaited<ReturnType<typeof startRehearsal>>,
): Promise<StormOutcome & { deadLettered: number }> {
  const table = await rig.dynamo.createTable();
  const http = await rig.load('Http', table);
  const workers: Bundled[] = [await rig.load('Worker', table), await rig.load('Worker', table)];
  const from = rig.jobs().length;
  const deadBefore = rig.deadLetters().length;
  let delivered = 0;
  const unfinished: unknown[] = [];
  const pump = async () => {
    const bodies = rig.jobs().slice(from + delivered);
    delivered += bodies.length;
    unfinished.push(...(await deliverToEach(bodies, workers, `storm-${delivered}`, rig.maxReceiveCount)));
  };
  const limit = pLimit(IN_FLIGHT);
  const pumping: Promise<void>[] = [];
  await Promise.all(
    Array.from({ length: NOTIFICATIONS }, (_, n) =>
      limit(async () => {
        const event = alertmanagerEvent(JSON.stringify(notification(n)), rig.token);
        const answer = (await http.handler(event, { awsRequestId: `n-${n}` })) as {
          statusCode: number;
          body: string;
        };
        if (answer.statusCode !== 202)
          throw new Error(`notification ${n}: ${answer.statusCode} ${answer.body}`);
        // The workers take what is queued while the storm goes on.
        if (n % 100 === 0) pumping.push(pump());
      }),
    ),
  );
  await Promise.all(pumping);
  while (rig.jobs().length - from > delivered) await pump();
  if (unfinished.length > 0)
    throw new Error(
      `${unfinished.length} jobs failed every delivery (${rig.maxReceiveCount}) and did not reach the DLQ: ${JSON.stringify(unfinished[0])}`,
    );
  const records = await dynamoStore({ client: rig.dynamo.client, table }).runs.list();
  // Why a job failed is in its record: said, so a dead letter is never only a count.
  for (const record of records.filter((r) => r.status === 'failed'))
    process.stderr.write(`  failed: ${record.cluster} ${record.runId}: ${record.error}\n`);
  return { ...stormOutcome(records), deadLettered: rig.deadLetters().length - deadBefore };
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
  const env = { ...process.env };
  const rehearsal = await startRehearsal(sim);
  try {
    const local: StormOutcome[] = [];
    const sqs: Awaited<ReturnType<typeof rehearsedStorm>>[] = [];
    for (let storm = 0; storm < STORMS; storm++) {
      local.push(await localServerStorm(access));
      sqs.push(await rehearsedStorm(rehearsal));
      process.stderr.write(
        `  storm ${storm + 1} of ${STORMS}: ${JSON.stringify({ local: local.at(-1), sqs: sqs.at(-1) })}\n`,
      );
    }
    const rehearsed =
      'SQS path in the rehearsal (bundled http function, 2 bundled workers, each message to both)';
    return {
      ...figures('local server', local),
      ...figures(rehearsed, sqs),
      [`${rehearsed}: jobs dead-lettered`]: {
        value: sqs.reduce((sum, o) => sum + o.deadLettered, 0),
        runs: sqs.length,
        atMost: 0,
      },
    };
  } finally {
    process.env = env;
    await rehearsal.stop();
    await sim.close();
  }
}
