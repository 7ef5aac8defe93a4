import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpApp } from '../../functions/http-app.ts';
import type { Verdict } from '../../src/engine/types.ts';
import { dynamoStore, memoryStore, type RunRecord, type StateStore } from '../../src/store/index.ts';
import { type LocalDynamoDB, startLocalDynamoDB } from '../src/store/local-dynamodb.ts';
import { expectedIds, putAll } from '../src/store/run-trail.ts';
import { run } from '../src/store/state-store-suite.ts';
import { appOf, OPERATOR_TOKEN, RUNBOOK_IDS, recordingQueue, testConfig } from './harness.ts';

/** GET /runs page by page, through the HTTP app, on the memory store and on DynamoDB (dynalite). */

const NOW = Date.parse('2026-11-21T10:00:00.000Z');
const RUNS = 1_100;
const CLUSTERS = ['prod-eu', 'prod-us'];
const VERDICTS: Verdict[] = ['healthy', 'remediated', 'failed', 'degraded'];
const auth = { authorization: `Bearer ${OPERATOR_TOKEN}` };

/** Runs back from NOW, five to a minute (queued in the same millisecond), over two clusters and runbooks. */
function trail(): RunRecord[] {
  return Array.from({ length: RUNS }, (_, i) =>
    run(
      `run-${String(i).padStart(4, '0')}`,
      CLUSTERS[i % 2] as string,
      new Date(NOW - (RUNS - Math.floor(i / 5) * 5) * 60_000).toISOString(),
      {
        runbook: i % 3 === 0 ? 'host-identity' : 'unmanaged-pods',
        status: 'done',
        verdict: VERDICTS[Math.floor(i / 2) % 4] as Verdict,
      },
    ),
  );
}

interface Answer {
  runs: RunRecord[];
  next?: string;
}

function describePaging(adapter: string, makeStore: () => Promise<StateStore>) {
  describe(`GET /runs pages (${adapter})`, () => {
    const runs = trail();
    let http: ReturnType<typeof createHttpApp>;
    beforeAll(async () => {
      const store = await makeStore();
      await putAll(store, runs);
      http = createHttpApp({
        app: appOf({
          config: testConfig(),
          store,
          queue: recordingQueue(),
          runbooks: RUNBOOK_IDS,
          now: () => new Date(NOW),
          newId: () => 'job-1',
        }),
        secrets: { operatorToken: OPERATOR_TOKEN },
      });
    }, 60_000);

    /** Follows `next` from the first page to the last, as a client does. */
    async function pages(query: Record<string, string>): Promise<Answer[]> {
      const answers: Answer[] = [];
      let next: string | undefined;
      do {
        const search = new URLSearchParams({ ...query, ...(next ? { next } : {}) });
        const response = await http.request(`/runs?${search}`, { headers: auth });
        expect(response.status).toBe(200);
        const answer = (await response.json()) as Answer;
        answers.push(answer);
        next = answer.next;
      } while (next !== undefined && answers.length < 100);
      return answers;
    }
    const ids = (answers: Answer[]) => answers.flatMap((a) => a.runs.map((r) => r.runId));

    it(`returns each of ${RUNS} runs exactly once, newest first, 500 a page, and no next after the last`, async () => {
      const answers = await pages({ limit: '500' });
      expect(answers.map((a) => a.runs.length)).toEqual([500, 500, 100]);
      expect(ids(answers)).toEqual(expectedIds(runs));
      expect(answers.at(-1)).not.toHaveProperty('next');
      // Opaque: the cursor is not the run id or the time it names.
      expect(answers[0]?.next).toMatch(/^[\w-]+$/);
      expect(answers[0]?.next).not.toContain('run-');
    });

    it('combines cluster, runbook, verdict and since (a time or how far back)', async () => {
      const query = {
        cluster: 'prod-us',
        runbook: 'unmanaged-pods',
        verdict: 'failed',
        limit: '20',
      } as const;
      const wanted = (since: string) => expectedIds(runs, { ...query, since });
      const since = new Date(NOW - 700 * 60_000).toISOString();
      expect(wanted(since).length).toBeGreaterThan(40);
      expect(ids(await pages({ ...query, since }))).toEqual(wanted(since));
      expect(ids(await pages({ ...query, since: '700m' }))).toEqual(wanted(since));
      const twelveHours = new Date(NOW - 12 * 3_600_000).toISOString();
      expect(wanted(twelveHours).length).toBeGreaterThan(wanted(since).length);
      expect(ids(await pages({ ...query, since: '12h' }))).toEqual(wanted(twelveHours));
    });

    it('filters on verdict alone across clusters', async () => {
      const answers = await pages({ verdict: 'degraded', limit: '100' });
      expect(ids(answers)).toEqual(expectedIds(runs, { verdict: 'degraded' }));
    });
  });
}

describePaging('memory', async () => memoryStore());

let local: LocalDynamoDB;
beforeAll(async () => {
  local = await startLocalDynamoDB();
});
afterAll(async () => {
  await local.stop();
});
describePaging('DynamoDB on dynalite', async () =>
  dynamoStore({ client: local.client, table: await local.createTable() }),
);
