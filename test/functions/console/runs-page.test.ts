import { describe, expect, it } from 'vitest';
import type { RunRecord } from '../../../src/store/types.ts';
import { run } from '../../src/store/state-store-suite.ts';
import { consoleUnderTest } from './harness.ts';

/** Sixty runs a minute apart, newest last; every third from Slack, every other on the second cluster. */
function trail(): RunRecord[] {
  return Array.from({ length: 60 }, (_, i) =>
    run(
      `run-${String(i).padStart(2, '0')}`,
      i % 2 ? 'prod-us' : 'prod-eu',
      new Date(Date.UTC(2026, 10, 21, 8, i)).toISOString(),
      {
        status: 'done',
        verdict: i % 4 === 0 ? 'healthy' : 'remediated',
        source: i % 3 === 0 ? 'slack-command' : 'alertmanager',
        summary: { diagnosis: `diagnosis of run ${i}`, found: 1, fixed: 1, open: 0 },
      },
    ),
  );
}

/** The run ids a page links to, in its order. */
function linkedRuns(html: string): string[] {
  return [...html.matchAll(/href="\/ui\/runs\/(run-\d+)"/g)].map((m) => m[1] as string);
}

async function withTrail() {
  const console = consoleUnderTest();
  for (const record of trail()) await console.store.runs.put(record);
  return { ...console, cookie: await console.signIn() };
}

describe('/ui/runs', () => {
  it('lists 50 runs newest first, each linking to its run, then the older ones by cursor', async () => {
    const { get, cookie } = await withTrail();
    const first = await (await get('/ui/runs', { cookie })).text();
    const ids = linkedRuns(first);
    expect(ids).toHaveLength(50);
    expect(ids[0]).toBe('run-59');
    expect(ids[49]).toBe('run-10');
    expect(first).toContain('diagnosis of run 59');
    const older = /href="(\/ui\/runs\?next=[^"]+)">Older runs/.exec(first)?.[1];
    expect(older).toBeDefined();
    const second = await (await get((older as string).replaceAll('&amp;', '&'), { cookie })).text();
    expect(linkedRuns(second)).toEqual([
      'run-09',
      'run-08',
      'run-07',
      'run-06',
      'run-05',
      'run-04',
      'run-03',
      'run-02',
      'run-01',
      'run-00',
    ]);
    expect(second).not.toContain('Older runs');
  });

  it('filters by cluster, runbook, verdict and source, and keeps the filters when paging', async () => {
    const { get, cookie } = await withTrail();
    const page = await (
      await get('/ui/runs?cluster=prod-us&verdict=remediated&source=slack-command&runbook=unmanaged-pods', {
        cookie,
      })
    ).text();
    // Odd, a multiple of three: 3, 9, 15 …; never a multiple of four (odd already).
    expect(linkedRuns(page)).toEqual([
      'run-57',
      'run-51',
      'run-45',
      'run-39',
      'run-33',
      'run-27',
      'run-21',
      'run-15',
      'run-09',
      'run-03',
    ]);
    expect(page).toContain('<option value="slack-command" selected="">slack-command</option>');
    const none = await (await get('/ui/runs?runbook=host-identity', { cookie })).text();
    expect(linkedRuns(none)).toEqual([]);
    expect(none).toContain('No runs here.');
  });

  it('says which filter is wrong instead of listing', async () => {
    const { get, cookie } = await withTrail();
    const answer = await get('/ui/runs?verdict=sunny', { cookie });
    expect(answer.status).toBe(400);
    expect(await answer.text()).toContain('verdict: expected one of healthy, remediated');
    const cursor = await get('/ui/runs?next=made-up', { cookie });
    expect(await cursor.text()).toContain('next: not a cursor this server gave');
  });
});
