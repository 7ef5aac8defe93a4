import { createHmac } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { startLocalServer } from '../cli/serve/local-server.ts';
import { RUNBOOK_CATALOG, RUNBOOK_IDS } from '../runbooks/catalog.ts';
import { startSim } from '../sim/index.ts';
import { createApp } from '../src/app/app.ts';
import { DEFAULT_CHANNEL } from '../src/app/ports.ts';
import type { ChatSink } from '../src/chat/types.ts';
import { connect } from '../src/cluster/connect.ts';
import type { ClusterAccess } from '../src/cluster/types.ts';
import { parseConfig } from '../src/config/load.ts';
import { SILENT } from '../src/engine/run.ts';
import type { Job } from '../src/queue/job.ts';
import { memoryStore } from '../src/store/index.ts';
import { parseAlertmanager } from '../src/triggers/index.ts';
import { type Figures, percentile } from './figures.ts';

const SECRET = 'bench-signing-secret';
const QUIET: ChatSink = { postReport: async () => ({}), postText: async () => ({}) };
const CONCURRENT = 1_000;

/** Latencies (ms) of `count` signed slash commands sent at once to the local server. */
async function ackLatencies(url: string, count: number, round: number): Promise<number[]> {
  return Promise.all(
    Array.from({ length: count }, async (_, n) => {
      const body = new URLSearchParams({
        command: '/cilium',
        text: `run unmanaged-pods on sim`,
        user_id: 'U0BENCH',
        user_name: 'bench',
        team_id: 'T0BENCH',
        channel_id: 'C0BENCH',
        trigger_id: `${round}.${n}.bench`,
        response_url: 'https://hooks.slack.com/commands/T0BENCH/1/bench',
        token: 'deprecated',
      }).toString();
      const timestamp = String(Math.floor(Date.now() / 1000));
      const signature = `v0=${createHmac('sha256', SECRET).update(`v0:${timestamp}:${body}`).digest('hex')}`;
      const started = performance.now();
      const response = await fetch(`${url}/slack/commands`, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          'x-slack-request-timestamp': timestamp,
          'x-slack-signature': signature,
        },
        body,
      });
      await response.text();
      if (response.status !== 200) throw new Error(`ack ${response.status}`);
      return performance.now() - started;
    }),
  );
}

/** The local server's Slack acknowledgement, with the cluster answering fast or not at all. */
async function slackAck(): Promise<Figures> {
  const sim = await startSim({ scenarios: ['healthy'] });
  const fast: ClusterAccess = await connect({ kind: 'sim', kubeconfig: sim.kubeconfig() });
  const config = parseConfig('clusters:\n  - name: sim\n    sim: { scenarios: [healthy] }\n', 'bench.yaml', {
    runbooks: RUNBOOK_IDS,
  });
  const stalled = new Promise<ClusterAccess>(() => {});
  const servers = await Promise.all(
    [async () => fast, () => stalled].map((connectTo) =>
      startLocalServer({ config, chat: QUIET, secrets: { slackSigningSecret: SECRET }, connect: connectTo }),
    ),
  );
  try {
    const p99 = { fast: [] as number[], stalled: [] as number[] };
    let all: number[] = [];
    for (let round = 0; round < 3; round++) {
      for (const [name, server] of [
        ['fast', servers[0]],
        ['stalled', servers[1]],
      ] as const) {
        const latencies = await ackLatencies(
          server?.url ?? '',
          CONCURRENT,
          round * 2 + (name === 'fast' ? 0 : 1),
        );
        p99[name].push(percentile(latencies, 99));
        if (name === 'stalled') all = all.concat(latencies);
        await sleep(100);
      }
    }
    const fastP99 = percentile(p99.fast, 50);
    const stalledP99 = percentile(p99.stalled, 50);
    return {
      [`Slack ack p99 at ${CONCURRENT} concurrent, cluster stalled (ms)`]: {
        value: Math.round(stalledP99),
        atMost: 3_000,
      },
      [`Slack ack p99 at ${CONCURRENT} concurrent, cluster fast (ms)`]: Math.round(fastP99),
      'Slack ack p99 stalled / fast': { value: Number((stalledP99 / fastP99).toFixed(2)), atMost: 1.2 },
      'Slack ack p50, cluster stalled (ms)': Math.round(percentile(all, 50)),
    };
  } finally {
    // The stalled server's jobs never finish; its process ends with the bench.
    await servers[0]?.close();
    await sim.close();
  }
}

/** 10,000 Alertmanager notifications for 50 clusters: how many runs per (cluster, runbook) they queue. */
async function alertStorm(): Promise<Figures> {
  const clusters = Array.from({ length: 50 }, (_, n) => `cluster-${n}`);
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
    store: memoryStore(),
    queue: { send: async (job) => void jobs.push(job) },
    chat: QUIET,
    defaultChannel: DEFAULT_CHANNEL,
    now: () => new Date(),
    newId: () => `job-${++ids}`,
    log: SILENT,
  });
  const started = performance.now();
  const alertnames = ['CiliumUnmanagedPods', 'CiliumUnreachableNodes'];
  for (let n = 0; n < 10_000; n++) {
    const cluster = clusters[n % clusters.length] as string;
    const alertname = alertnames[Math.floor(n / clusters.length) % 2] as string;
    // Each notification is new: its group gains an alert (another pod, another node) each time.
    const webhook = {
      version: '4',
      status: 'firing',
      receiver: 'cilium-responder',
      groupKey: `{}:{alertname="${alertname}", cluster="${cluster}"}`,
      groupLabels: { alertname },
      commonLabels: { alertname, cluster },
      commonAnnotations: {},
      externalURL: 'http://alertmanager:9093',
      truncatedAlerts: 0,
      alerts: [
        {
          status: 'firing',
          labels: { alertname, cluster, pod: `pod-${n}` },
          annotations: {},
          startsAt: '2026-11-24T04:00:00Z',
          endsAt: '0001-01-01T00:00:00Z',
          generatorURL: 'http://prometheus:9090',
          fingerprint: n.toString(16).padStart(16, '0'),
        },
      ],
    };
    await app.dispatch(parseAlertmanager(webhook, { receivedAt: new Date() }));
  }
  const seconds = (performance.now() - started) / 1000;
  const pairs = new Set(jobs.map((job) => `${job.cluster}|${job.runbook}`));
  return {
    'alerts admitted per second': Math.round(10_000 / seconds),
    'runs queued / unique (cluster, runbook) pairs': { value: jobs.length / pairs.size, atMost: 1 },
  };
}

export async function eventPlaneBench(): Promise<Figures> {
  return { ...(await alertStorm()), ...(await slackAck()) };
}
