import { beforeAll, describe, expect, it } from 'vitest';
import type { Verdict } from '../../../src/engine/types.ts';
import type { RunPage, RunPageQuery, RunRecord, StateStore } from '../../../src/store/index.ts';
import { expectedIds, putAll } from './run-trail.ts';
import { run } from './state-store-suite.ts';

/** Paging through the audit trail, the same for every StateStore adapter. */

const T0 = Date.parse('2026-03-02T10:00:00.000Z');
const CLUSTERS = ['prod-eu', 'prod-us', 'staging'];
const RUNBOOKS = ['unmanaged-pods', 'host-identity'];
const VERDICTS: (Verdict | undefined)[] = ['healthy', 'remediated', 'failed', 'degraded', undefined];
const SOURCES = ['alertmanager', 'schedule', 'slack-command', 'cloudwatch'] as const;
const RUNS = 1_203;

/** Runs over three clusters, two runbooks and five outcomes; three at a time share a millisecond. */
function trail(): RunRecord[] {
  return Array.from({ length: RUNS }, (_, i) => {
    const verdict = VERDICTS[i % VERDICTS.length];
    return run(
      `run-${(i * 7919) % 10_007}`,
      CLUSTERS[i % 3] as string,
      new Date(T0 + Math.floor(i / 3) * 1000).toISOString(),
      {
        runbook: RUNBOOKS[Math.floor(i / 2) % 2] as string,
        source: SOURCES[i % SOURCES.length] as (typeof SOURCES)[number],
        status: verdict ? 'done' : 'running',
        ...(verdict ? { verdict } : {}),
      },
    );
  });
}

async function walk(store: StateStore, query: Omit<RunPageQuery, 'after'>): Promise<RunPage[]> {
  const pages: RunPage[] = [];
  let after: string | undefined;
  do {
    const page = await store.runs.page({ ...query, after });
    pages.push(page);
    after = page.next;
  } while (after !== undefined && pages.length < 1_000);
  return pages;
}

const ids = (pages: RunPage[]) => pages.flatMap((page) => page.runs.map((r) => r.runId));

export function describeRunPages(adapter: string, makeStore: () => Promise<StateStore>): void {
  describe(`${adapter}: pages of the audit trail`, () => {
    const runs = trail();
    let store: StateStore;
    beforeAll(async () => {
      store = await makeStore();
      await putAll(store, runs);
    }, 60_000);

    it(`pages through ${RUNS} runs 500 at a time: each exactly once, newest first, and the last page says so`, async () => {
      const pages = await walk(store, { limit: 500 });
      expect(pages.map((page) => page.runs.length)).toEqual([500, 500, 203]);
      expect(pages.at(-1)?.next).toBeUndefined();
      expect(ids(pages)).toEqual(expectedIds(runs));
      expect(new Set(ids(pages)).size).toBe(RUNS);
    });

    it('combines cluster, runbook, verdict and since, paged 7 at a time across runs sharing a millisecond', async () => {
      const filter = {
        cluster: 'prod-us',
        runbook: 'host-identity',
        verdict: 'failed' as const,
        since: new Date(T0 + 100 * 1000).toISOString(),
      };
      expect(expectedIds(runs, filter).length).toBeGreaterThan(14);
      const pages = await walk(store, { ...filter, limit: 7 });
      expect(ids(pages)).toEqual(expectedIds(runs, filter));
      for (const page of pages) expect(page.runs.length).toBeLessThanOrEqual(7);
    });

    it('filters on runbook and verdict without a cluster, across every cluster', async () => {
      const filter = { runbook: 'unmanaged-pods', verdict: 'remediated' as const };
      const pages = await walk(store, { ...filter, limit: 50 });
      expect(ids(pages)).toEqual(expectedIds(runs, filter));
      expect(new Set(pages.flatMap((p) => p.runs.map((r) => r.cluster)))).toEqual(new Set(CLUSTERS));
    });

    it('filters on source, alone and with a cluster and verdict', async () => {
      for (const filter of [
        { source: 'schedule' as const },
        { source: 'slack-command' as const, cluster: 'prod-eu', verdict: 'healthy' as const },
      ]) {
        const pages = await walk(store, { ...filter, limit: 40 });
        expect(ids(pages)).toEqual(expectedIds(runs, filter));
        expect(ids(pages).length).toBeGreaterThan(10);
        expect(new Set(pages.flatMap((p) => p.runs.map((r) => r.source)))).toEqual(new Set([filter.source]));
      }
    });

    it('counts a run queued exactly at `since`, and none before it', async () => {
      const since = new Date(T0 + 390 * 1000).toISOString();
      const pages = await walk(store, { since, limit: 4 });
      expect(ids(pages)).toEqual(expectedIds(runs, { since }));
      expect(pages.flatMap((p) => p.runs).at(-1)?.queuedAt).toBe(since);
    });

    it('gives nothing once the cursor is at or past `since`, and nothing for a cluster with no runs', async () => {
      const first = await store.runs.page({ limit: 3 });
      const second = await store.runs.page({ after: first.next, limit: 3 });
      // The three newest runs share their millisecond: `since` it, the first page held them all.
      const since = first.runs[0]?.queuedAt;
      expect(await store.runs.page({ since, after: first.next, limit: 5 })).toEqual({ runs: [] });
      expect(await store.runs.page({ since, after: second.next, limit: 5 })).toEqual({ runs: [] });
      expect(await store.runs.page({ cluster: 'nowhere', limit: 5 })).toEqual({ runs: [] });
    });
  });
}
