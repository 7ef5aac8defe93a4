import { afterAll, describe, expect, it } from 'vitest';
import { clusterConnector } from '../../../cli/cluster-connector.ts';
import { RUNBOOK_CATALOG, RUNBOOK_IDS } from '../../../runbooks/catalog.ts';
import { RUNBOOKS } from '../../../runbooks/index.ts';
import { runInProcess } from '../../../src/app/in-process.ts';
import type { ChatSink } from '../../../src/chat/types.ts';
import { parseConfig } from '../../../src/config/load.ts';
import { SILENT } from '../../../src/engine/run.ts';
import { memoryStore } from '../../../src/store/index.ts';
import type { Trigger } from '../../../src/triggers/types.ts';

const config = parseConfig(
  `
clusters:
  - name: broken
    sim: { scenarios: [unmanaged-pods, vxlan-blocked] }
    params: { host-identity: { monitorSeconds: 1 } }
  - name: clean
    sim: { scenarios: [healthy] }
    params: { host-identity: { monitorSeconds: 1 } }
schedules:
  - name: nightly
    expression: cron(0 3 * * ? *)
  - name: hourly
    expression: rate(1 hour)
    clusters: [clean]
    whenClean: silent
`,
  'sweep.yaml',
  { runbooks: RUNBOOK_IDS },
);

function sweep(name: string, at: string): Trigger {
  return {
    source: 'schedule',
    receivedAt: at,
    deliveryKey: `schedule:${name}:${at}`,
    alerts: [],
    actor: { kind: 'system', id: `schedule:${name}` },
    schedule: { name },
  };
}

describe('compliance sweep summaries', () => {
  const posts: { threadKey: string; text: string }[] = [];
  const chat: ChatSink = {
    postReport: async () => ({}),
    postText: async (target, text) => {
      posts.push({ threadKey: target.threadKey, text });
      return {};
    },
    // Only the problem threads of the broken cluster exist.
    threadLink: async (key) =>
      key.startsWith('broken/') ? `https://example.slack.com/archives/${key}` : undefined,
  };
  const clusters = clusterConnector();
  const store = memoryStore();
  const ports = {
    config,
    runbookIds: RUNBOOK_IDS,
    runbookInfo: RUNBOOK_CATALOG,
    store,
    chat,
    defaultChannel: '#cilium-responder',
    now: () => new Date(),
    newId: (() => {
      let n = 0;
      return () => `job-${++n}`;
    })(),
    log: SILENT,
  };
  const cluster = { runbooks: RUNBOOKS, connect: clusters.connect };
  afterAll(() => clusters.close());

  it('one message per cluster per sweep, with what is new, still open and fixed since the last', async () => {
    await runInProcess(sweep('nightly', '2026-11-24T03:00:00Z'), ports, cluster);
    const first = posts.filter((p) => p.threadKey === 'broken/sweep/nightly');
    expect(first).toHaveLength(1);
    expect(first[0]?.text).toMatch(/^Sweep nightly on broken:\n/);
    expect(first[0]?.text.split('\n')).toHaveLength(1 + RUNBOOK_IDS.length);
    expect(first[0]?.text).toMatch(/• unmanaged-pods: degraded \(\d+ new, 0 still open, 0 fixed\)/);
    expect(first[0]?.text).toMatch(/• tunnel-datapath: degraded \(\d+ new, 0 still open, 0 fixed\)/);
    // Each line links to its problem's thread.
    expect(first[0]?.text).toContain('• host-identity: healthy (nothing found)\n');
    expect(first[0]?.text).toMatch(
      /• unmanaged-pods: .* <https:\/\/example\.slack\.com\/archives\/broken\/unmanaged-pods\|thread>/,
    );
    expect(posts.filter((p) => p.threadKey === 'clean/sweep/nightly').map((p) => p.text)).toEqual([
      'Sweep nightly on clean: all clear (4 runbooks, nothing open).',
    ]);

    posts.length = 0;
    await runInProcess(sweep('nightly', '2026-11-25T03:00:00Z'), ports, cluster);
    const second = posts.find((p) => p.threadKey === 'broken/sweep/nightly');
    expect(second?.text).toMatch(/• tunnel-datapath: degraded \(0 new, \d+ still open, 0 fixed\)/);
  }, 120_000);

  it('a clean sweep configured silent posts nothing', async () => {
    posts.length = 0;
    await runInProcess(sweep('hourly', '2026-11-24T04:00:00Z'), ports, cluster);
    expect(posts).toEqual([]);
  }, 60_000);
});
