import pLimit from 'p-limit';
import { createConsole } from '../functions/console/console-app.ts';
import { type SignInMethod, startSession } from '../functions/console/session.ts';
import { RUNBOOK_CATALOG, RUNBOOK_IDS } from '../runbooks/catalog.ts';
import { createApp } from '../src/app/app.ts';
import { DEFAULT_CHANNEL } from '../src/app/ports.ts';
import { parseConfig } from '../src/config/load.ts';
import { SILENT } from '../src/engine/run.ts';
import type { Verdict } from '../src/engine/types.ts';
import { dynamoStore } from '../src/store/index.ts';
import type { RunRecord } from '../src/store/types.ts';
import type { TriggerSource } from '../src/triggers/types.ts';
import { startDynaliteProcess } from './dynalite-process.ts';
import { type Figures, fromRuns } from './figures.ts';
import { ROUNDS } from './sizes.ts';

const RUNS = 100_000;
const CLUSTERS = ['prod-eu', 'prod-us', 'stage-eu', 'stage-us'];
const VERDICTS: Verdict[] = ['healthy', 'healthy', 'remediated', 'degraded', 'needs-approval', 'failed'];
const SOURCES: TriggerSource[] = ['alertmanager', 'alertmanager', 'cloudwatch', 'schedule', 'slack-command'];
/** What the issue holds the list to: 50 runs within 100 ms of server time. */
const LIMIT_MS = 100;
const START = Date.parse('2026-01-01T00:00:00.000Z');

/** A finished run as the worker records it: a summary, and a small report (steps, a finding, evidence). */
function record(i: number): RunRecord {
  const cluster = CLUSTERS[i % CLUSTERS.length] as string;
  // Runbooks rotate once per round of clusters, so no runbook keeps to one cluster.
  const runbook = RUNBOOK_IDS[Math.floor(i / CLUSTERS.length) % RUNBOOK_IDS.length] as string;
  const verdict = VERDICTS[i % VERDICTS.length] as Verdict;
  const queuedAt = new Date(START + i * 60_000).toISOString();
  const runId = `run-${String(i).padStart(6, '0')}`;
  return {
    runId,
    jobId: `job-${runId}`,
    cluster,
    runbook,
    mode: 'auto',
    source: SOURCES[i % SOURCES.length] as TriggerSource,
    actor: 'alertmanager',
    reason: 'CiliumUnmanagedPods',
    params: {},
    status: 'done',
    verdict,
    plan: [],
    actions: i % 3 === 0 ? [`evict-pod shop/web-${i}: done`] : [],
    queuedAt,
    startedAt: queuedAt,
    finishedAt: queuedAt,
    summary: {
      diagnosis: `1 unmanaged pod on ${cluster}, evicted and verified.`,
      found: 1,
      fixed: 1,
      open: 0,
    },
    report: {
      runId,
      runbook,
      cluster,
      mode: 'auto',
      verdict,
      timings: { startedAt: queuedAt, finishedAt: queuedAt, durationMs: 1_200 },
      steps: [
        {
          id: 'find',
          title: 'Find unmanaged pods',
          status: 'warn',
          summary: '1 unmanaged pod on 1 node',
          durationMs: 900,
          findings: [
            {
              code: 'UNMANAGED_POD',
              target: `shop/web-${i}`,
              severity: 'warning',
              message: 'no CiliumEndpoint',
            },
          ],
          evidence: [
            { source: 'ip-10-0-1-23: cilium-dbg endpoint list', text: 'ENDPOINT 1234 ready\n'.repeat(20) },
          ],
          plan: [],
          done: [],
        },
      ],
    },
  };
}

/** One value of each filter, as the runs list's query names it: all four together are 1 run in 240. */
const FILTER_VALUES = {
  cluster: 'prod-us',
  runbook: RUNBOOK_IDS[1] as string,
  verdict: 'degraded',
  source: 'cloudwatch',
} as const;

/** The runs list filtered by each non-empty combination of cluster, runbook, verdict and source. */
async function filterCombinations(
  timed: (query: () => Promise<string>) => Promise<Figures[string]>,
): Promise<Figures> {
  const fields = Object.keys(FILTER_VALUES) as (keyof typeof FILTER_VALUES)[];
  const figures: Figures = {};
  for (let mask = 1; mask < 2 ** fields.length; mask++) {
    const chosen = fields.filter((_, bit) => (mask >> bit) & 1);
    const query = new URLSearchParams(chosen.map((field) => [field, FILTER_VALUES[field]])).toString();
    figures[`filtered by ${chosen.join(' + ')}, ms`] = await timed(async () => `?${query}`);
  }
  return figures;
}

/** Signs the bench's reader in, as any sign-in method does. */
const benchSignIn: SignInMethod = {
  mount(ui) {
    ui.get('/bench-sign-in', async (c) => {
      await startSession(c, { userId: 'U0BENCH' });
      return c.text('ok');
    });
  },
};

/**
 * The console's runs list over 100,000 runs in DynamoDB (dynalite in its own process): the server
 * time of a page of 50 (the session read, the Query, the render), newest first, filtered and paged.
 */
export async function consoleRunsBench(): Promise<Figures> {
  const dynamo = await startDynaliteProcess();
  try {
    const store = dynamoStore({ client: dynamo.client, table: await dynamo.createTable() });
    const limit = pLimit(16);
    await Promise.all(Array.from({ length: RUNS }, (_, i) => limit(() => store.runs.put(record(i)))));
    const config = parseConfig(
      `clusters:\n${CLUSTERS.map((name) => `  - name: ${name}\n    sim: { scenarios: [healthy] }\n`).join('')}`,
      'bench.yaml',
      { runbooks: RUNBOOK_IDS },
    );
    const app = createApp({
      config,
      runbookIds: RUNBOOK_IDS,
      runbookInfo: RUNBOOK_CATALOG,
      store,
      queue: { send: async () => {} },
      chat: { postReport: async () => ({}), postText: async () => ({}) },
      defaultChannel: DEFAULT_CHANNEL,
      now: () => new Date(),
      newId: () => 'job',
      log: SILENT,
    });
    const ui = createConsole(app, {
      session: { secret: 'bench-console-secret-0123456789abcdef', secure: true },
      signIn: [benchSignIn],
    });
    const origin = 'https://console.bench';
    const signedIn = await ui.request(`${origin}/bench-sign-in`);
    const cookie = (signedIn.headers.get('set-cookie') ?? '').split(';')[0] as string;
    const page = async (query: string) => {
      const started = performance.now();
      const answer = await ui.request(`${origin}/runs${query}`, { headers: { cookie, accept: 'text/html' } });
      const html = await answer.text();
      const ms = performance.now() - started;
      const rows = html.match(/href="\/ui\/runs\/run-/g)?.length ?? 0;
      if (answer.status !== 200 || rows !== 50) throw new Error(`${query}: ${answer.status}, ${rows} runs`);
      return { ms, next: /href="\/ui\/runs\?([^"]*next=[^"]+)"/.exec(html)?.[1]?.replaceAll('&amp;', '&') };
    };
    const timed = async (query: () => Promise<string>, limit: { atMost?: number } = { atMost: LIMIT_MS }) => {
      await page(await query()); // warm: the first Query of a kind loads dynalite's paths
      const samples: number[] = [];
      for (let round = 0; round < Math.max(ROUNDS, 5); round++) samples.push((await page(await query())).ms);
      return fromRuns(samples, 1, limit);
    };
    // The 50th page back: the cursor of page 49, got once.
    let deep = '';
    for (let i = 0; i < 49; i++) deep = `?${(await page(deep)).next}`;
    return {
      'runs in the table': RUNS,
      'first page of 50, ms': await timed(async () => ''),
      'page 50 (by cursor), ms': await timed(async () => deep),
      // Every combination of the filters, each a key of its own index (never a filter on what one read).
      ...(await filterCombinations(timed)),
    };
  } finally {
    dynamo.stop();
  }
}
