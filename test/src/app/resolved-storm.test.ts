import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createApp } from '../../../src/app/app.ts';
import { slackSink } from '../../../src/slack/sink.ts';
import { memoryStore } from '../../../src/store/index.ts';
import { parseAlertmanager } from '../../../src/triggers/index.ts';
import { recordingQueue, unmanagedAlert } from '../../functions/harness.ts';
import { startFakeSlack } from '../slack/fake-slack.ts';
import { testPorts } from './test-ports.ts';

/** Alertmanager's notification for the unmanaged-pods alert, as group `n` in `status`. */
function notification(n: number, status: 'firing' | 'resolved') {
  const webhook = unmanagedAlert() as { alerts: { status: string }[] } & Record<string, unknown>;
  for (const alert of webhook.alerts) alert.status = status;
  const groupLabels = { alertname: 'CiliumUnmanagedPods', n: String(n) };
  return parseAlertmanager(
    { ...webhook, status, groupLabels, groupKey: `{}:{alertname="CiliumUnmanagedPods", n="${n}"}` },
    { receivedAt: new Date() },
  );
}

describe('a storm of resolved notifications', () => {
  let slack: Awaited<ReturnType<typeof startFakeSlack>>;
  beforeEach(async () => {
    slack = await startFakeSlack();
  });
  afterEach(() => slack.close());

  it("says each resolve once on the thread's head, once per state change: 2,000 notifications, not 2,000 posts", async () => {
    const store = memoryStore();
    const queue = recordingQueue();
    const app = createApp(
      testPorts({
        store,
        queue,
        chat: slackSink({ token: 'xoxb-test', slackApiUrl: slack.url, threads: store.threads }),
      }),
    );
    for (let n = 0; n < 2000; n++) await app.dispatch(notification(n, 'resolved'));
    // Every notification is in the audit trail; the thread heard it once.
    expect((await store.runs.list()).filter((r) => r.status === 'resolved')).toHaveLength(2000);
    expect(slack.calls.map((c) => c.method)).toEqual(['chat.postMessage']);
    expect(slack.calls[0]?.params.text).toBe('Resolved: CiliumUnmanagedPods on prod-eu (nothing to run).');

    // It fires again (a run is queued), then resolves again in another storm: one edit of the head.
    await app.dispatch(notification(5000, 'firing'));
    expect(queue.sent).toHaveLength(1);
    for (let n = 6000; n < 6500; n++) await app.dispatch(notification(n, 'resolved'));
    expect(slack.calls.map((c) => c.method)).toEqual(['chat.postMessage', 'chat.update']);
    // The head Slack gave back (its channel id and ts), edited in place.
    expect(slack.calls[1]?.params).toMatchObject({
      channel: 'C0CILIUM01',
      ts: '1714564800.000001',
      text: 'Resolved: CiliumUnmanagedPods on prod-eu (nothing to run).',
    });
  }, 120_000);
});
