import { describe, expect, it } from 'vitest';
import { createHttpApp } from '../../functions/http-app.ts';
import type { App } from '../../src/app/app.ts';
import { memoryStore } from '../../src/store/index.ts';
import {
  ALERTMANAGER_TOKEN,
  appOf,
  commandBody,
  RUNBOOK_IDS,
  recordingQueue,
  signedHeaders,
  TEST_SECRETS,
  testClock,
  testConfig,
  unmanagedAlert,
} from './harness.ts';

/** The http app as the Lambda entry builds it: the core handed over as a loader, counted. */
function lazyApp(options: { failFirst?: boolean } = {}) {
  const queue = recordingQueue();
  const clock = testClock(new Date('2025-06-02T03:00:00Z'));
  let ids = 0;
  let builds = 0;
  const load = async (): Promise<App> => {
    builds++;
    if (options.failFirst && builds === 1)
      throw new Error('config names a runbook this function does not know');
    return appOf({
      config: testConfig(),
      store: memoryStore(),
      queue,
      runbooks: RUNBOOK_IDS,
      now: clock.now,
      newId: () => `job-${++ids}`,
    });
  };
  const app = createHttpApp({ app: load, secrets: TEST_SECRETS, now: clock.now });
  return { app, queue, clock, builds: () => builds };
}

const alert = (token = ALERTMANAGER_TOKEN, contentType = 'application/json') => ({
  method: 'POST',
  headers: { 'content-type': contentType, authorization: `Bearer ${token}` },
  body: JSON.stringify(unmanagedAlert()),
});

describe('the http app with its core built on demand (the Lambda entry)', () => {
  it('answers health, a wrong token, a wrong content type and an SNS subscription without building the core', async () => {
    const t = lazyApp();
    expect((await t.app.request('/healthz')).status).toBe(200);
    expect((await t.app.request('/alerts/alertmanager', alert('wrong-token'))).status).toBe(401);
    expect((await t.app.request('/alerts/grafana', alert(ALERTMANAGER_TOKEN, 'text/plain'))).status).toBe(
      415,
    );
    const sns = await t.app.request('/alerts/alertmanager', {
      ...alert(),
      headers: { ...alert().headers, 'x-amz-sns-message-type': 'SubscriptionConfirmation' },
    });
    expect(sns.status).toBe(400);
    expect(t.builds()).toBe(0);
    expect(t.queue.sent).toEqual([]);
  });

  it('refuses a forged or stale Slack request before building the core', async () => {
    const t = lazyApp();
    const body = commandBody({ text: 'list' });
    const forged = signedHeaders(body, t.clock.now(), 'not-the-signing-secret');
    const stale = signedHeaders(body, new Date(t.clock.now().getTime() - 6 * 60_000));
    for (const [path, headers] of [
      ['/slack/commands', forged],
      ['/slack/interactions', forged],
      ['/slack/commands', stale],
    ] as const) {
      const answer = await t.app.request(path, { method: 'POST', headers, body });
      expect(answer.status).toBe(401);
      expect(await answer.json()).toEqual({ error: expect.stringContaining('invalid Slack request') });
    }
    expect(t.builds()).toBe(0);
    expect(t.queue.sent).toEqual([]);
  });

  it('builds the core once, with the first webhook, and every request after it uses the same', async () => {
    const t = lazyApp();
    const [first, second] = await Promise.all([
      t.app.request('/alerts/alertmanager', alert()),
      t.app.request('/alerts/alertmanager', alert()),
    ]);
    expect([first.status, second.status]).toEqual([202, 202]);
    const body = commandBody({ text: 'list' });
    const listed = await t.app.request('/slack/commands', {
      method: 'POST',
      headers: signedHeaders(body, t.clock.now()),
      body,
    });
    expect(listed.status).toBe(200);
    expect(t.builds()).toBe(1);
    // One core, one store: the second identical notification is a duplicate of the first.
    expect(t.queue.sent).toHaveLength(1);
  });

  it('a core that could not be built fails that request (a function error Lambda logs, no job) and is built again by the next', async () => {
    const t = lazyApp({ failFirst: true });
    await expect(t.app.request('/alerts/alertmanager', alert())).rejects.toThrow('config names a runbook');
    expect(t.queue.sent).toEqual([]);
    expect((await t.app.request('/alerts/alertmanager', alert())).status).toBe(202);
    expect(t.builds()).toBe(2);
    expect(t.queue.sent).toHaveLength(1);
  });
});
