import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RUNBOOKS } from '../../../runbooks/index.ts';
import { createApp } from '../../../src/app/app.ts';
import { createWorker } from '../../../src/app/worker.ts';
import { consoleSink } from '../../../src/chat/console.ts';
import type { Job } from '../../../src/queue/job.ts';
import { memoryQueue } from '../../../src/queue/memory.ts';
import { memoryStore } from '../../../src/store/index.ts';
import { parseAlertmanager } from '../../../src/triggers/index.ts';
import { CLUSTER, collector, fixtureJson } from '../../functions/harness.ts';
import { type SimUnderTest, startScenario } from '../../helpers/sim-access.ts';
import { testPorts } from './test-ports.ts';

/** The n-th distinct Alertmanager notification (its own group key) routed to unmanaged-pods. */
function notification(n: number): unknown {
  const webhook = fixtureJson<{
    groupKey: string;
    alerts: { labels: Record<string, string>; fingerprint: string }[];
  }>('triggers/alertmanager-v4.json');
  webhook.groupKey = `{}:{alertname="CiliumUnmanagedPods", n="${n}"}`;
  for (const alert of webhook.alerts) {
    alert.labels.alertname = 'CiliumUnmanagedPods';
    alert.labels.cluster = CLUSTER;
    alert.fingerprint = `${alert.fingerprint}-${n}`;
  }
  return webhook;
}

/** The n-th person asking for a dry run of unmanaged-pods from the terminal: never folded into another run. */
function cliRequest(n: number) {
  return {
    source: 'cli' as const,
    receivedAt: new Date().toISOString(),
    deliveryKey: `cli:${n}`,
    alerts: [],
    cluster: CLUSTER,
    runbook: 'unmanaged-pods',
    actor: { kind: 'user' as const, id: `local:person-${n}` },
  };
}

describe('30 notifications and 30 requests for one (cluster, runbook) at once', () => {
  let scenario: SimUnderTest;
  beforeAll(async () => {
    scenario = await startScenario(['healthy']);
  });
  afterAll(() => scenario.sim.close());

  it('never run two at once, and the alerts queue one run and one follow-up between them', async () => {
    const store = memoryStore();
    let running = 0;
    let mostAtOnce = 0;
    const ports = testPorts({
      store,
      queue: { send: async () => {} },
      chat: consoleSink(collector().stream),
    });
    const worker = createWorker(ports, {
      runbooks: RUNBOOKS,
      connect: async () => {
        // A run reaches the cluster here; held open a little, so runs that could overlap do.
        running++;
        mostAtOnce = Math.max(mostAtOnce, running);
        await sleep(20);
        return scenario.access;
      },
    });
    const queue = memoryQueue({
      handle: async (job: Job) => {
        const result = await worker.run(job);
        if (result.report) running--;
        return result;
      },
    });
    const app = createApp({ ...ports, queue });

    const dispatched = await Promise.all([
      ...Array.from({ length: 30 }, (_, n) =>
        app.dispatch(parseAlertmanager(notification(n), { receivedAt: new Date() })),
      ),
      ...Array.from({ length: 30 }, (_, n) => app.dispatch(cliRequest(n))),
    ]);
    await queue.idle();

    // The alerts, however many, queue one run and its follow-up; each person's request is its own.
    expect(dispatched.slice(0, 30).flatMap((d) => d.queued)).toHaveLength(1);
    const runs = await store.runs.list({ limit: 100 });
    expect(runs).toHaveLength(32);
    expect(runs.filter((r) => r.reason.includes('follow-up of run'))).toHaveLength(1);
    expect(runs.filter((r) => r.status === 'done').length).toBeGreaterThanOrEqual(1);
    for (const run of runs.filter((r) => r.status === 'duplicate'))
      expect(run.error).toMatch(
        new RegExp(
          `^another unmanaged-pods run on ${CLUSTER} is in progress \\(job job-\\d+, its lease held until \\d{4}-`,
        ),
      );
    expect(mostAtOnce).toBe(1);
  }, 60_000);
});
