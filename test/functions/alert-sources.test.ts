import { describe, expect, it } from 'vitest';
import { MAX_BODY_BYTES } from '../../functions/http-app.ts';
import { parseConfig } from '../../src/config/load.ts';
import { AMP_CAPTURES, ampCapture, ampCaptureText } from '../src/triggers/fixtures.ts';
import {
  ALERTMANAGER_TOKEN,
  appUnderTest,
  CLUSTER,
  configText,
  fixtureJson,
  RUNBOOK_IDS,
} from './harness.ts';

/** The harness's config plus routes for Grafana's documented alerts and the captured big group. */
const config = parseConfig(
  configText().replace(
    'routes:\n',
    `routes:
  - match: { alertname: High memory usage }
    cluster: ${CLUSTER}
    runbook: host-identity
  - match: { alertname: CiliumUnreachableNodes }
    runbook: tunnel-datapath
`,
  ),
  'alert-sources.yaml',
  { runbooks: RUNBOOK_IDS },
);

const post = async (
  t: ReturnType<typeof appUnderTest>,
  path: string,
  body: string,
  headers: Record<string, string> = { authorization: `Bearer ${ALERTMANAGER_TOKEN}` },
) => {
  const response = await t.app.request(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
  });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
};

type Grafana = { status: string; alerts: { status: string }[] };
const resolved = (payload: Grafana): Grafana => ({
  ...payload,
  status: 'resolved',
  alerts: payload.alerts.map((alert) => ({ ...alert, status: 'resolved' })),
});

describe('Grafana webhook contact point: POST /alerts/grafana', () => {
  it.each(['grafana-9-webhook.json', 'grafana-11-webhook.json'])(
    "routes Grafana's documented payload (%s) by alertname, as an Alertmanager group",
    async (file) => {
      const t = appUnderTest({ config });
      const answer = await post(t, '/alerts/grafana', JSON.stringify(fixtureJson(`triggers/${file}`)));
      expect(answer.status).toBe(202);
      expect(answer.json.queued).toEqual([
        { runId: 'job-1', cluster: CLUSTER, runbook: 'host-identity', mode: 'dry-run' },
      ]);
      expect(answer.json.skipped).toEqual(['High CPU usage: no route matches']);
      const [job] = t.queue.sent;
      expect(job?.trigger.actor).toEqual({ kind: 'system', id: 'grafana' });
      expect(job?.trigger.alerts.map((a) => a.fingerprint)).toEqual(['c6eadffa33fcdf37', 'bc97ff14869b13e3']);
    },
  );

  it('deduplicates a resend by its fingerprints, and records the resolve', async () => {
    const t = appUnderTest({ config });
    const body = JSON.stringify(fixtureJson('triggers/grafana-11-webhook.json'));
    await post(t, '/alerts/grafana', body);
    const again = await post(t, '/alerts/grafana', body);
    expect(again.json).toMatchObject({ queued: [], duplicates: 1 });
    const gone = await post(
      t,
      '/alerts/grafana',
      JSON.stringify(resolved(fixtureJson('triggers/grafana-11-webhook.json'))),
    );
    expect(gone.json).toMatchObject({
      queued: [],
      resolved: [{ cluster: CLUSTER, runbook: 'host-identity' }],
    });
    expect(t.queue.sent).toHaveLength(1);
  });

  it("takes Grafana's auth as it sends it: its Authorization header (Bearer) or basic auth; refuses others", async () => {
    const body = JSON.stringify(fixtureJson('triggers/grafana-9-webhook.json'));
    const basic = `Basic ${Buffer.from(`grafana:${ALERTMANAGER_TOKEN}`).toString('base64')}`;
    expect(
      (await post(appUnderTest({ config }), '/alerts/grafana', body, { authorization: basic })).status,
    ).toBe(202);
    const wrong = await post(appUnderTest({ config }), '/alerts/grafana', body, {
      authorization: 'Bearer nope',
    });
    expect(wrong.status).toBe(401);
    expect((await post(appUnderTest({ config }), '/alerts/grafana', body, {})).status).toBe(401);
  });

  it('refuses an Alertmanager payload on the Grafana path naming the version', async () => {
    const answer = await post(
      appUnderTest({ config }),
      '/alerts/grafana',
      JSON.stringify(fixtureJson('triggers/alertmanager-v4.json')),
    );
    expect(answer).toMatchObject({ status: 400, json: { field: 'version' } });
    expect(answer.json.error).toMatch(/^version: expected "1"/);
  });
});

describe('big Alertmanager groups', () => {
  const big = AMP_CAPTURES.find((c) => c.via === 'webhook' && c.scenario === 'big')?.file as string;

  it('accepts a real 1,200-alert group (about 1 MB) and makes one job for its routed pair', async () => {
    const t = appUnderTest({ config });
    const body = ampCaptureText(big);
    expect(Buffer.byteLength(body)).toBeGreaterThan(1_000_000);
    const answer = await post(t, '/alerts/alertmanager', body);
    expect(answer.status).toBe(202);
    expect(answer.json.queued).toEqual([
      { runId: 'job-1', cluster: CLUSTER, runbook: 'tunnel-datapath', mode: 'dry-run' },
    ]);
    expect(t.queue.sent[0]?.trigger.alerts).toHaveLength(1200);
  });

  it('refuses a body past what a Function URL carries with 413 naming the limit, and tells the entry (log, metric)', async () => {
    const refused: unknown[] = [];
    const t = appUnderTest({
      config,
      onTooLarge: (r) => {
        refused.push(r);
      },
    });
    const body = JSON.stringify({ ...ampCapture(big), padding: 'x'.repeat(MAX_BODY_BYTES) });
    const answer = await post(t, '/alerts/alertmanager', body);
    expect(answer).toEqual({
      status: 413,
      json: { error: `request body is larger than ${6 * 1024 * 1024} bytes` },
    });
    expect(refused).toEqual([{ path: '/alerts/alertmanager', limit: 6 * 1024 * 1024 }]);
    expect(t.queue.sent).toEqual([]);
  });
});

describe('an SNS topic subscribed to the Function URL over HTTPS', () => {
  it('is refused with one line saying to subscribe the alarm function instead, so it stays unconfirmed', async () => {
    const t = appUnderTest({ config });
    const confirmation = {
      Type: 'SubscriptionConfirmation',
      MessageId: '165545c9-2a5c-472c-8df2-7ff2be2b3b1b',
      Token: '2336412f37f',
      TopicArn: 'arn:aws:sns:eu-west-1:123456789012:amp-alerts',
      Message: 'You have chosen to subscribe to the topic arn:aws:sns:eu-west-1:123456789012:amp-alerts.',
      SubscribeURL: 'https://sns.eu-west-1.amazonaws.com/?Action=ConfirmSubscription',
    };
    const answer = await t.app.request('/alerts/alertmanager', {
      method: 'POST',
      headers: {
        'content-type': 'text/plain; charset=UTF-8',
        'x-amz-sns-message-type': 'SubscriptionConfirmation',
      },
      body: JSON.stringify(confirmation),
    });
    expect(answer.status).toBe(400);
    const { error } = (await answer.json()) as { error: string };
    expect(error).toMatch(
      /^SNS HTTPS subscriptions are not read here: subscribe the alarm function to the topic/,
    );
    expect(error).not.toContain('\n');
  });
});
