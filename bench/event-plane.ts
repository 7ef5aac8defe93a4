import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startLocalServer } from '../cli/serve/local-server.ts';
import { RUNBOOK_CATALOG, RUNBOOK_IDS } from '../runbooks/catalog.ts';
import { startSim } from '../sim/index.ts';
import { kubeconfigYaml } from '../sim/kubeconfig.ts';
import { createApp } from '../src/app/app.ts';
import { DEFAULT_CHANNEL } from '../src/app/ports.ts';
import type { ChatSink } from '../src/chat/types.ts';
import { parseConfig } from '../src/config/load.ts';
import { SILENT } from '../src/engine/run.ts';
import type { Job } from '../src/queue/job.ts';
import { dynamoStore } from '../src/store/index.ts';
import { parseAlertmanager } from '../src/triggers/index.ts';
import { growingGroup } from '../test/helpers/storm.ts';
import { startDynaliteProcess } from './dynalite-process.ts';
import { type Figures, fromRuns, pairedRatios, percentile } from './figures.ts';
import { lastJsonLine, runMeasured } from './processes.ts';
import { ROUNDS } from './sizes.ts';
import { startStalledEndpoint } from './stalled-cluster.ts';

const SECRET = 'bench-signing-secret';
const QUIET: ChatSink = { postReport: async () => ({}), postText: async () => ({}) };
const CONCURRENT = 1_000;
const CLIENT = fileURLToPath(new URL('./slack-client.ts', import.meta.url));

/** A config with one cluster, `bench`, reached through this kubeconfig. */
function benchConfig(kubeconfig: string) {
  return parseConfig(
    `clusters:\n  - name: bench\n    kubeconfig: { path: ${JSON.stringify(kubeconfig)}, context: sim }\n`,
    'bench.yaml',
    { runbooks: RUNBOOK_IDS },
  );
}

/**
 * The local server's Slack acknowledgement, measured by a client in a process of its own, with
 * the cluster answering fast (the simulator) or not at all (a socket that accepts and never
 * answers, so every run the acks queue hangs on it until its timeout).
 */
async function slackAck(): Promise<Figures> {
  const sim = await startSim({ scenarios: ['healthy'] });
  const stalled = await startStalledEndpoint();
  const dir = mkdtempSync(join(tmpdir(), 'bench-slack-'));
  const kubeconfigs = {
    fast: join(dir, 'fast.yaml'),
    stalled: join(dir, 'stalled.yaml'),
  };
  writeFileSync(kubeconfigs.fast, sim.kubeconfig());
  writeFileSync(
    kubeconfigs.stalled,
    kubeconfigYaml({ server: stalled.url, caPem: sim.caPem, token: sim.admin.token }),
  );
  const servers = {
    fast: await startLocalServer({
      config: benchConfig(kubeconfigs.fast),
      chat: QUIET,
      secrets: { slackSigningSecret: SECRET },
    }),
    stalled: await startLocalServer({
      config: benchConfig(kubeconfigs.stalled),
      chat: QUIET,
      secrets: { slackSigningSecret: SECRET },
    }),
  };
  try {
    const p99 = { fast: [] as number[], stalled: [] as number[] };
    const p50Stalled: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      for (const name of ['fast', 'stalled'] as const) {
        const { stdout } = await runMeasured(process.execPath, [
          '--import',
          'tsx',
          CLIENT,
          servers[name].url,
          SECRET,
          String(CONCURRENT),
          `${name}-${round}`,
        ]);
        const latencies = lastJsonLine<number[]>(stdout);
        p99[name].push(percentile(latencies, 99));
        if (name === 'stalled') p50Stalled.push(percentile(latencies, 50));
      }
    }
    return {
      [`Slack ack p99 at ${CONCURRENT} concurrent, cluster stalled (ms)`]: fromRuns(p99.stalled, 0, {
        atMost: 3_000,
      }),
      [`Slack ack p99 at ${CONCURRENT} concurrent, cluster fast (ms)`]: fromRuns(p99.fast, 0),
      'Slack ack p99 stalled / fast': fromRuns(pairedRatios(p99.stalled, p99.fast), 2, { atMost: 1.2 }),
      'Slack ack p50, cluster stalled (ms)': fromRuns(p50Stalled, 0),
    };
  } finally {
    // The stalled server's run waits on the socket until its timeout; the bench does not wait for it.
    await servers.fast.close();
    await stalled.close();
    await sim.close();
  }
}

/**
 * Alertmanager notifications per storm. Each one costs a few conditional writes, and dynalite
 * admits about a hundred a second on the shared machine: five storms of 2,000 keep the bench
 * within minutes.
 */
const STORM_ALERTS = 2_000;
const STORM_CLUSTERS = 50;

/**
 * One storm: Alertmanager notifications for 50 clusters through admission, the state in DynamoDB
 * (dynalite, in its own process, a new table per storm). How many runs per (cluster, runbook)
 * it queues, and how fast it admits.
 */
async function storm(store: ReturnType<typeof dynamoStore>) {
  const clusters = Array.from({ length: STORM_CLUSTERS }, (_, n) => `cluster-${n}`);
  const config = parseConfig(
    [
      'clusters:',
      ...clusters.flatMap((name) => [`  - name: ${name}`, '    sim: { scenarios: [healthy] }']),
      'routes:',
      '  - match: { alertname: [CiliumUnmanagedPods] }',
      '    runbook: unmanaged-pods',
      '    mode: auto',
      '  - match: { alertname: [CiliumUnreachableNodes] }',
      '    runbook: tunnel-datapath',
    ].join('\n'),
    'bench.yaml',
    { runbooks: RUNBOOK_IDS },
  );
  const jobs: Job[] = [];
  let ids = 0;
  const app = createApp({
    config,
    runbookIds: RUNBOOK_IDS,
    runbookInfo: RUNBOOK_CATALOG,
    store,
    queue: { send: async (job) => void jobs.push(job) },
    chat: QUIET,
    defaultChannel: DEFAULT_CHANNEL,
    now: () => new Date(),
    newId: () => `job-${++ids}`,
    log: SILENT,
  });
  const started = performance.now();
  const alertnames = ['CiliumUnmanagedPods', 'CiliumUnreachableNodes'];
  for (let n = 0; n < STORM_ALERTS; n++) {
    const cluster = clusters[n % clusters.length] as string;
    const alertname = alertnames[Math.floor(n / clusters.length) % 2] as string;
    // Each notification is new: its group gains an alert (another pod) each time it is sent.
    const webhook = growingGroup(cluster, alertname, Math.floor(n / (clusters.length * alertnames.length)));
    await app.dispatch(parseAlertmanager(webhook, { receivedAt: new Date() }));
  }
  const seconds = (performance.now() - started) / 1000;
  const pairs = new Set(jobs.map((job) => `${job.cluster}|${job.runbook}`));
  return { perSecond: STORM_ALERTS / seconds, runsPerPair: jobs.length / pairs.size };
}

async function alertStorms(): Promise<Figures> {
  const dynamo = await startDynaliteProcess();
  try {
    const storms: Awaited<ReturnType<typeof storm>>[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      storms.push(await storm(dynamoStore({ client: dynamo.client, table: await dynamo.createTable() })));
    }
    return {
      [`alerts admitted per second, ${STORM_ALERTS.toLocaleString('en-US')} alerts for ${STORM_CLUSTERS} clusters, state on dynalite`]:
        fromRuns(
          storms.map((s) => s.perSecond),
          0,
        ),
      'runs queued / unique (cluster, runbook) pairs (worst storm)': {
        value: Math.max(...storms.map((s) => s.runsPerPair)),
        runs: storms.length,
        atMost: 1,
      },
    };
  } finally {
    dynamo.stop();
  }
}

export async function eventPlaneBench(): Promise<Figures> {
  return { ...(await alertStorms()), ...(await slackAck()) };
}
