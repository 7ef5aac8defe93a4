import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { serve } from '@hono/node-server';
import { afterEach, describe, expect, it } from 'vitest';
import { createHttpApp } from '../../functions/http-app.ts';
import { RUNBOOKS } from '../../runbooks/index.ts';
import { consoleSink } from '../../src/chat/console.ts';
import { connect } from '../../src/cluster/connect.ts';
import { type ClusterAccess, RESOURCES } from '../../src/cluster/types.ts';
import { SILENT } from '../../src/engine/run.ts';
import type { Job } from '../../src/queue/job.ts';
import { type MemoryQueue, memoryQueue } from '../../src/queue/memory.ts';
import { memoryStore } from '../../src/store/index.ts';
import type { RunRecord, StateStore } from '../../src/store/types.ts';
import { runJob } from '../../src/worker/run-job.ts';
import { type SimUnderTest, simAccess, startScenario } from '../helpers/sim-access.ts';
import { waitingRun as waitingRecord } from '../src/routing/fixtures.ts';
import {
  ALERTMANAGER_TOKEN,
  APPROVER,
  type AppUnderTest,
  appOf,
  appUnderTest,
  BYSTANDER,
  CLUSTER,
  collector,
  commandBody,
  FORM,
  fixtureJson,
  RUNBOOK_IDS,
  SLACK_SECRET,
  signedHeaders,
  testClock,
  testConfig,
} from './harness.ts';

type Webhook = {
  status: string;
  version: unknown;
  alerts: {
    status: string;
    labels: Record<string, string>;
    fingerprint: string;
    annotations: Record<string, string>;
  }[];
  commonLabels: Record<string, string>;
  groupKey?: string;
  [key: string]: unknown;
};

const webhookFixture = () => fixtureJson<Webhook>('triggers/alertmanager-v4.json');

type Headers = Record<string, string | undefined>;

function definedHeaders(headers: Headers): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([, v]) => v !== undefined)) as Record<
    string,
    string
  >;
}

type Client = Pick<AppUnderTest, 'app' | 'clock'>;

async function postAlert(t: Client, body: unknown, headers: Headers = {}) {
  const response = await t.app.request('/alerts/alertmanager', {
    method: 'POST',
    headers: definedHeaders({
      'content-type': 'application/json',
      authorization: `Bearer ${ALERTMANAGER_TOKEN}`,
      ...headers,
    }),
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

async function postSlack(t: Client, path: string, body: string, headers: Headers) {
  const response = await t.app.request(path, { method: 'POST', headers: definedHeaders(headers), body });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

/** A signed slash command at the app's current clock. */
function command(t: Client, body: string, extra: Headers = {}) {
  return postSlack(t, '/slack/commands', body, { ...signedHeaders(body, t.clock.now()), ...extra });
}

/** Nothing was queued and nothing recorded. */
async function expectNoJob(t: AppUnderTest) {
  expect(t.queue.sent).toEqual([]);
  expect(await t.store.runs.list()).toEqual([]);
}

describe('POST /alerts/alertmanager', () => {
  it("turns Alertmanager's real sample payload into one queued job with a queued run record", async () => {
    const t = appUnderTest();
    const answer = await postAlert(t, webhookFixture());

    expect(answer.status).toBe(202);
    expect(answer.json).toMatchObject({
      queued: [{ cluster: CLUSTER, runbook: 'host-identity', mode: 'dry-run' }],
      duplicates: 0,
    });
    expect(t.queue.sent).toHaveLength(1);
    const [job] = t.queue.sent as [Job];
    expect(job).toMatchObject({ cluster: CLUSTER, runbook: 'host-identity', mode: 'dry-run' });
    expect(job.trigger.alerts.map((a) => [a.name, a.fingerprint])).toEqual([
      ['ProbeFailure', '1a30ba71cca2921f'],
    ]);
    const records = await t.store.runs.list();
    expect(records.map((r) => [r.runId, r.status, r.source, r.reason])).toEqual([
      [job.id, 'queued', 'alertmanager', 'ProbeFailure'],
    ]);
  });

  it('100 identical notifications posted at once queue exactly one job', async () => {
    const t = appUnderTest();
    const body = JSON.stringify(webhookFixture());
    const answers = await Promise.all(Array.from({ length: 100 }, () => postAlert(t, body)));

    expect(answers.every((a) => a.status === 202)).toBe(true);
    expect(answers.map((a) => (a.json.queued as unknown[]).length).reduce((x, y) => x + y)).toBe(1);
    expect(answers.map((a) => a.json.duplicates as number).reduce((x, y) => x + y)).toBe(99);
    expect(t.queue.sent).toHaveLength(1);
    expect(await t.store.runs.list()).toHaveLength(1);
  });

  it('a group of 30 alerts for one cluster and runbook queues one job carrying all 30', async () => {
    const t = appUnderTest();
    const webhook = webhookFixture();
    const sample = webhook.alerts[0] as Webhook['alerts'][number];
    webhook.alerts = Array.from({ length: 30 }, (_, i) => ({
      ...sample,
      labels: { ...sample.labels, instance: `https://server-${i}.example.org` },
      fingerprint: `1a30ba71cca2${i.toString(16).padStart(4, '0')}`,
    }));

    const answer = await postAlert(t, webhook);

    expect(answer.status).toBe(202);
    expect(answer.json.queued).toHaveLength(1);
    expect(t.queue.sent).toHaveLength(1);
    expect(t.queue.sent[0]?.trigger.alerts).toHaveLength(30);
    expect(await t.store.runs.list()).toHaveLength(1);
  });

  it('a resolved notification runs nothing and leaves a resolved record', async () => {
    const t = appUnderTest();
    const webhook = webhookFixture();
    webhook.status = 'resolved';
    for (const alert of webhook.alerts) alert.status = 'resolved';

    const answer = await postAlert(t, webhook);

    expect(answer.status).toBe(202);
    expect(answer.json).toMatchObject({
      queued: [],
      resolved: [{ cluster: CLUSTER, runbook: 'host-identity' }],
    });
    expect(t.queue.sent).toEqual([]);
    const records = await t.store.runs.list();
    expect(records.map((r) => [r.cluster, r.runbook, r.status])).toEqual([
      [CLUSTER, 'host-identity', 'resolved'],
    ]);
  });

  it('100 copies of one resolved notification leave one resolved record', async () => {
    const t = appUnderTest();
    const webhook = webhookFixture();
    webhook.status = 'resolved';
    for (const alert of webhook.alerts) alert.status = 'resolved';

    const answers = await Promise.all(Array.from({ length: 100 }, () => postAlert(t, webhook)));

    expect(answers.every((a) => a.status === 202)).toBe(true);
    expect(await t.store.runs.list()).toHaveLength(1);
    expect(t.queue.sent).toEqual([]);
  });

  it.each([
    ['no Authorization header', undefined, 401],
    ['a wrong bearer token', 'Bearer am-token-4f2a9d', 401],
    // RFC 6750: a malformed Authorization header is an invalid request.
    ['the token under another scheme', `Token ${ALERTMANAGER_TOKEN}`, 400],
    ['basic auth with a wrong password', `Basic ${Buffer.from('alertmanager:nope').toString('base64')}`, 401],
    ['a bearer token that only starts right', `Bearer ${ALERTMANAGER_TOKEN}x`, 401],
  ])('%s → refused and no job', async (_, authorization, status) => {
    const t = appUnderTest();
    const answer = await postAlert(t, webhookFixture(), { authorization });
    expect(answer.status).toBe(status);
    expect(answer.json.error).toMatch(/bearer token/);
    await expectNoJob(t);
  });

  it('accepts the token as the password of basic auth', async () => {
    const t = appUnderTest();
    const basic = Buffer.from(`alertmanager:${ALERTMANAGER_TOKEN}`).toString('base64');
    const answer = await postAlert(t, webhookFixture(), { authorization: `Basic ${basic}` });
    expect(answer.status).toBe(202);
    expect(t.queue.sent).toHaveLength(1);
  });

  it('wrong content type → 415 naming the expected type, no job', async () => {
    const t = appUnderTest();
    const answer = await postAlert(t, JSON.stringify(webhookFixture()), { 'content-type': 'text/plain' });
    expect(answer.status).toBe(415);
    expect(answer.json.error).toBe('content-type must be application/json, not text/plain');
    await expectNoJob(t);
  });

  it('malformed JSON → 400 naming body, no job', async () => {
    const t = appUnderTest();
    const answer = await postAlert(t, '{"version": "4", "alerts": [');
    expect(answer.status).toBe(400);
    expect(answer.json.field).toBe('body');
    expect(answer.json.error).toMatch(/^body: malformed JSON/);
    await expectNoJob(t);
  });

  const broken: [string, (w: Webhook) => void, string, RegExp][] = [
    [
      'alerts is a string',
      (w) => Object.assign(w, { alerts: 'firing' }),
      'alerts',
      /expected array, got string/,
    ],
    ['version is "3"', (w) => Object.assign(w, { version: '3' }), 'version', /expected "4", got "3"/],
    ['groupKey is missing', (w) => delete w.groupKey, 'groupKey', /missing/],
    ['alerts is empty', (w) => Object.assign(w, { alerts: [] }), 'alerts', /at least one alert/],
    [
      'an alert fingerprint is a number',
      (w) => Object.assign(w.alerts[0] as object, { fingerprint: 42 }),
      'alerts[0].fingerprint',
      /expected string, got number/,
    ],
    [
      'an alert has no alertname',
      (w) => delete (w.alerts[0] as Webhook['alerts'][number]).labels.alertname,
      'alerts[0].labels.alertname',
      /missing/,
    ],
  ];
  it.each(broken)('%s → 400 whose message names the field, no job', async (_, breakIt, field, problem) => {
    const t = appUnderTest();
    const webhook = webhookFixture();
    breakIt(webhook);
    const answer = await postAlert(t, webhook);
    expect(answer.status).toBe(400);
    expect(answer.json.field).toBe(field);
    expect(answer.json.error).toMatch(new RegExp(`^${field.replace(/[[\].]/g, '\\$&')}: `));
    expect(answer.json.error).toMatch(problem);
    await expectNoJob(t);
  });

  it('a body over maxBodyBytes → 413, no job (declared length and streamed without one)', async () => {
    const t = appUnderTest({ maxBodyBytes: 4096 });
    const webhook = webhookFixture();
    (webhook.alerts[0] as Webhook['alerts'][number]).annotations.description = 'x'.repeat(5000);
    const body = JSON.stringify(webhook);

    const declared = await postAlert(t, body, { 'content-length': String(Buffer.byteLength(body)) });
    expect(declared.status).toBe(413);
    expect(declared.json.error).toBe('request body is larger than 4096 bytes');

    const streamed = await t.app.request('/alerts/alertmanager', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${ALERTMANAGER_TOKEN}` },
      body: new ReadableStream({
        start(controller) {
          for (let i = 0; i < body.length; i += 1000)
            controller.enqueue(new TextEncoder().encode(body.slice(i, i + 1000)));
          controller.close();
        },
      }),
      duplex: 'half',
    } as RequestInit);
    expect(streamed.status).toBe(413);
    await expectNoJob(t);

    // The same notification within the limit is fine: the 413 was about size alone.
    (webhook.alerts[0] as Webhook['alerts'][number]).annotations.description = 'short';
    expect((await postAlert(t, webhook)).status).toBe(202);
  });
});

type SigningExample = { signingSecret: string; timestamp: string; body: string; signature: string };

describe("Slack signature check, with Slack's documented example", () => {
  const example = fixtureJson<SigningExample>('slack/signing-example.json');

  const exampleApp = (secondsAfter = 0): AppUnderTest =>
    appUnderTest({ start: new Date((Number(example.timestamp) + secondsAfter) * 1000) });

  async function postExample(t: AppUnderTest, body = example.body, headers: Headers = {}) {
    // The app is configured with the example's signing secret, as Slack's app would be.
    const app = createHttpApp({
      app: appOf(t.dispatch),
      secrets: { slackSigningSecret: example.signingSecret, alertmanagerToken: ALERTMANAGER_TOKEN },
    });
    const response = await app.request('/slack/commands', {
      method: 'POST',
      headers: definedHeaders({
        'content-type': FORM,
        'x-slack-request-timestamp': example.timestamp,
        'x-slack-signature': example.signature,
        ...headers,
      }),
      body,
    });
    return { status: response.status, json: (await response.json()) as Record<string, unknown> };
  }

  it("verifies with the clock at the example's timestamp (its empty text answers with the usage)", async () => {
    const t = exampleApp();
    const answer = await postExample(t);
    expect(answer.status).toBe(200);
    expect(answer.json.response_type).toBe('ephemeral');
    expect(answer.json.text).toContain('`/cilium run <runbook|all> [cluster] [--apply] [key=value...]`');
    await expectNoJob(t);
  });

  it('still verifies at exactly 5 minutes, and fails one second later as too old', async () => {
    expect((await postExample(exampleApp(300))).status).toBe(200);
    const late = exampleApp(301);
    const answer = await postExample(late);
    expect(answer.status).toBe(401);
    expect(answer.json.error).toBe('invalid Slack request: request timestamp is more than 5 minutes old');
    await expectNoJob(late);
  });

  it('fails when one byte of the body is changed', async () => {
    const t = exampleApp();
    const tampered = example.body.replace('user_name=roadrunner', 'user_name=roadrunnes');
    expect(tampered).not.toBe(example.body);
    const answer = await postExample(t, tampered);
    expect(answer.status).toBe(401);
    expect(answer.json.error).toBe('invalid Slack request: signature mismatch');
    await expectNoJob(t);
  });

  it.each([
    ['x-slack-signature', 'missing X-Slack-Signature header'],
    ['x-slack-request-timestamp', 'missing X-Slack-Request-Timestamp header'],
  ])('fails without the %s header', async (header, reason) => {
    const t = exampleApp();
    const answer = await postExample(t, example.body, { [header]: undefined });
    expect(answer.status).toBe(401);
    expect(answer.json.error).toBe(`invalid Slack request: ${reason}`);
    await expectNoJob(t);
  });

  it('checks /slack/interactions the same way', async () => {
    const t = appUnderTest();
    const body = new URLSearchParams({
      payload: JSON.stringify(fixtureJson('triggers/slack-block-actions.json')),
    }).toString();
    const answer = await postSlack(t, '/slack/interactions', body, {
      ...signedHeaders(body, t.clock.now(), 'some-other-secret'),
    });
    expect(answer.status).toBe(401);
    expect(answer.json.error).toBe('invalid Slack request: signature mismatch');
    await expectNoJob(t);
  });
});

describe('POST /slack/commands', () => {
  it("queues Slack's documented run command as one dry-run job and answers ephemerally", async () => {
    const t = appUnderTest();
    const answer = await command(t, commandBody());

    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({
      response_type: 'ephemeral',
      text: `Queued unmanaged-pods on ${CLUSTER} (dry-run). The report will be posted in #${CLUSTER}.`,
    });
    expect(t.queue.sent.map((j) => [j.runbook, j.cluster, j.mode, j.trigger.actor.id])).toEqual([
      ['unmanaged-pods', CLUSTER, 'dry-run', 'U2147483697'],
    ]);
    expect((await t.store.runs.list()).map((r) => [r.status, r.source, r.actor])).toEqual([
      ['queued', 'slack-command', 'Steve'],
    ]);
  });

  it('a Slack retry of the same request (same trigger_id, X-Slack-Retry-Num) queues nothing more', async () => {
    const t = appUnderTest();
    const body = commandBody();
    expect((await command(t, body)).status).toBe(200);
    t.clock.advance(3_000);

    const retry = await command(t, body, {
      'x-slack-retry-num': '1',
      'x-slack-retry-reason': 'http_timeout',
    });

    expect(retry.status).toBe(200);
    expect(retry.json).toEqual({
      response_type: 'ephemeral',
      text: 'Already queued: this request was received before.',
    });
    expect(t.queue.sent).toHaveLength(1);
    expect(await t.store.runs.list()).toHaveLength(1);
  });

  it('mode=auto queues an auto job; a new invocation (new trigger_id) is a new job', async () => {
    const t = appUnderTest();
    await command(t, commandBody());
    const answer = await command(
      t,
      commandBody({
        text: `run unmanaged-pods on ${CLUSTER} mode=auto`,
        trigger_id: '13345224609.738474920.2',
        user_id: APPROVER,
      }),
    );
    expect(answer.json.text).toMatch(/^Queued unmanaged-pods on prod-eu \(auto\)/);
    expect(t.queue.sent.map((j) => j.mode)).toEqual(['dry-run', 'auto']);
  });

  it('a non-approver asking for mode=auto gets an ephemeral refusal and no job', async () => {
    const t = appUnderTest();
    const text = `run unmanaged-pods on ${CLUSTER} mode=auto`;
    const answer = await command(t, commandBody({ text, user_id: BYSTANDER }));
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({
      response_type: 'ephemeral',
      text: `Not run: <@${BYSTANDER}> is not an approver of unmanaged-pods: a run that changes the cluster needs one (approvers.unmanaged-pods or approvers."*" in the config). Ask an approver to run it with --apply, or leave out --apply for a dry run.`,
    });
    await expectNoJob(t);
  });

  it.each([
    ['run', 'runbook: missing <runbook> (a runbook id, or all). Usage: `/cilium run <runbook|all> [cluster]'],
    [
      'run unmanaged-pods on prod-eu mode=yolo',
      'mode: mode must be one of auto, dry-run, approve, not "yolo"',
    ],
    ['94070', 'text: unknown command "94070"; use help, list, run, status, history or brake reset'],
    ['run unmanaged-pods prod-eu --apply mode=approve', 'mode: --apply contradicts mode=approve'],
  ])('bad text %j → 200 ephemeral usage, no job', async (text, message) => {
    const t = appUnderTest();
    const answer = await command(t, commandBody({ text }));
    expect(answer.status).toBe(200);
    expect(answer.json.response_type).toBe('ephemeral');
    expect(answer.json.text).toContain(message);
    await expectNoJob(t);
  });

  it('a cluster not in the config → says so, no job', async () => {
    const t = appUnderTest();
    const answer = await command(t, commandBody({ text: 'run unmanaged-pods on prod-mars' }));
    expect(answer.json).toEqual({
      response_type: 'ephemeral',
      text: 'cluster: no cluster "prod-mars"; known: prod-eu. Usage: `/cilium run <runbook|all> [cluster] [--apply] [key=value...]`',
    });
    await expectNoJob(t);
  });

  it.each([
    ['trigger_id', { trigger_id: undefined }, /missing/],
    ['user_id', { user_id: undefined }, /missing/],
    ['response_url', { response_url: 'http://hooks.slack.com/commands/1' }, /https URL/],
  ])('a bad or missing %s → 400 naming it, no job', async (field, changes, problem) => {
    const t = appUnderTest();
    const answer = await command(t, commandBody(changes));
    expect(answer.status).toBe(400);
    expect(answer.json.field).toBe(field);
    expect(answer.json.error).toMatch(problem);
    await expectNoJob(t);
  });

  it('a JSON body → 415, no job', async () => {
    const t = appUnderTest();
    const body = JSON.stringify({ text: 'run unmanaged-pods on prod-eu' });
    const answer = await postSlack(t, '/slack/commands', body, {
      ...signedHeaders(body, t.clock.now()),
      'content-type': 'application/json',
    });
    expect(answer.status).toBe(415);
    await expectNoJob(t);
  });
});

describe('the slash command, verb by verb, through the app', () => {
  /** The harness config with a second cluster: a command must then name one. */
  function twoClusters() {
    const config = testConfig();
    const [first] = config.clusters;
    if (!first) throw new Error('the test config has a cluster');
    return { ...config, clusters: [first, { ...first, name: 'prod-us', channel: '#prod-us' }] };
  }

  /** A signed command, timed: Slack wants its answer within 3 s. */
  async function timed(t: Client, changes: Record<string, string>) {
    const started = performance.now();
    const answer = await command(t, commandBody(changes));
    return { ...answer, ms: performance.now() - started };
  }

  it.each(['help', 'list', 'history', 'status', 'run unmanaged-pods', 'run unmanaged-pods --apply'])(
    '"%s" is acknowledged at once, ephemerally',
    async (text) => {
      const t = appUnderTest();
      const answer = await timed(t, { text });
      expect(answer.status).toBe(200);
      expect(answer.json.response_type).toBe('ephemeral');
      expect(answer.ms).toBeLessThan(1_000);
    },
  );

  it('help names the configured command and every verb', async () => {
    const t = appUnderTest({ config: { ...testConfig(), slack: { command: '/ops' } } });
    const answer = await command(t, commandBody({ text: 'help' }));
    const text = String(answer.json.text);
    for (const form of [
      '`/ops list`',
      '`/ops run <runbook|all> [cluster] [--apply] [key=value...]`',
      '`/ops status [cluster]`',
      '`/ops history [cluster]`',
      '`/ops brake reset <cluster>`',
      '`/ops help`',
    ])
      expect(text).toContain(form);
    expect(text).not.toContain('/cilium');
    await expectNoJob(t);
  });

  it('list gives one line per runbook, saying whether it writes, and queues nothing', async () => {
    const t = appUnderTest();
    const answer = await command(t, commandBody({ text: 'list' }));
    expect(answer.json).toEqual({
      response_type: 'ephemeral',
      text: [
        '• `unmanaged-pods`: Pods Cilium does not manage (writes: --apply needs an approver)',
        '• `cgroup-root-hooks`: Socket-LB hooks on the wrong cgroup (read-only)',
        '• `host-identity`: Host traffic identified as world (writes: --apply needs an approver)',
        '• `tunnel-datapath`: Cross-node traffic dropped in the tunnel (read-only)',
      ].join('\n'),
    });
    await expectNoJob(t);
  });

  it('run <runbook> without --apply queues a dry-run job, on the only cluster when none is named', async () => {
    const t = appUnderTest();
    const answer = await command(t, commandBody({ text: 'run unmanaged-pods', user_id: BYSTANDER }));
    expect(answer.json).toEqual({
      response_type: 'ephemeral',
      text: `Queued unmanaged-pods on ${CLUSTER} (dry-run). The report will be posted in #${CLUSTER}.`,
    });
    expect(t.queue.sent.map((j) => [j.runbook, j.cluster, j.mode])).toEqual([
      ['unmanaged-pods', CLUSTER, 'dry-run'],
    ]);
  });

  it('run <runbook> --apply by an approver queues an auto job; mode=auto is the same', async () => {
    for (const text of [`run unmanaged-pods ${CLUSTER} --apply`, 'run unmanaged-pods mode=auto']) {
      const t = appUnderTest();
      const answer = await command(t, commandBody({ text, user_id: APPROVER }));
      expect(answer.json).toEqual({
        response_type: 'ephemeral',
        text: `Queued unmanaged-pods on ${CLUSTER} (auto). The report will be posted in #${CLUSTER}.`,
      });
      expect(t.queue.sent.map((j) => [j.runbook, j.mode])).toEqual([['unmanaged-pods', 'auto']]);
    }
  });

  it('run <runbook> --apply by a non-approver is refused, saying who is needed, and queues nothing', async () => {
    const t = appUnderTest();
    const answer = await command(
      t,
      commandBody({ text: 'run unmanaged-pods --apply namespaces=shop', user_id: BYSTANDER }),
    );
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({
      response_type: 'ephemeral',
      text: `Not run: <@${BYSTANDER}> is not an approver of unmanaged-pods: a run that changes the cluster needs one (approvers.unmanaged-pods or approvers."*" in the config). Ask an approver to run it with --apply, or leave out --apply for a dry run.`,
    });
    await expectNoJob(t);
  });

  it('run <read-only runbook> --apply by a non-approver runs: nothing in it can change the cluster', async () => {
    const t = appUnderTest();
    const answer = await command(
      t,
      commandBody({ text: 'run cgroup-root-hooks --apply', user_id: BYSTANDER }),
    );
    expect(answer.json).toEqual({
      response_type: 'ephemeral',
      text: `Queued cgroup-root-hooks on ${CLUSTER} (auto). The report will be posted in #${CLUSTER}.`,
    });
    expect(t.queue.sent.map((j) => [j.runbook, j.mode])).toEqual([['cgroup-root-hooks', 'auto']]);
  });

  it('run all --apply by a non-approver queues the read-only runbooks and says which were refused', async () => {
    const t = appUnderTest();
    const answer = await command(t, commandBody({ text: 'run all --apply', user_id: BYSTANDER }));
    expect(answer.json.text).toMatch(
      new RegExp(`^Queued cgroup-root-hooks, tunnel-datapath on ${CLUSTER} \\(auto\\)\\..*\\nNot run: `),
    );
    expect(answer.json.text).toContain(`<@${BYSTANDER}> is not an approver of unmanaged-pods`);
    expect(answer.json.text).toContain(`<@${BYSTANDER}> is not an approver of host-identity`);
    expect(t.queue.sent.map((j) => j.runbook)).toEqual(['cgroup-root-hooks', 'tunnel-datapath']);
  });

  it('status answers with the brake and queues every runbook as a dry run', async () => {
    const t = appUnderTest();
    const answer = await command(t, commandBody({ text: 'status', user_id: BYSTANDER }));
    expect(answer.json).toEqual({
      response_type: 'ephemeral',
      text: `*${CLUSTER}*: brake off (0/20 writes this window)\nQueued ${RUNBOOK_IDS.join(', ')} on ${CLUSTER} (dry-run). The report will be posted in #${CLUSTER}.`,
    });
    expect(t.queue.sent.map((j) => j.mode)).toEqual(RUNBOOK_IDS.map(() => 'dry-run'));
  });

  it("history without a cluster, with several configured, lists every cluster's runs, each named", async () => {
    const t = appUnderTest({ config: twoClusters() });
    await t.store.runs.put(
      waitingRecord({ runId: 'eu', cluster: CLUSTER, queuedAt: '2025-06-02T02:10:00.000Z' }),
    );
    await t.store.runs.put(
      waitingRecord({ runId: 'us', cluster: 'prod-us', queuedAt: '2025-06-02T02:20:00.000Z' }),
    );
    const answer = await command(t, commandBody({ text: 'history' }));
    expect(answer.json.text).toBe(
      [
        '*Every cluster*: the last 2 runs',
        '• 2025-06-02 02:20Z prod-us unmanaged-pods (approve, alertmanager): needs-approval, 3 planned',
        `• 2025-06-02 02:10Z ${CLUSTER} unmanaged-pods (approve, alertmanager): needs-approval, 3 planned`,
      ].join('\n'),
    );
  });

  it('history lists the recent runs: time, runbook, verdict, counts; it queues nothing', async () => {
    const t = appUnderTest();
    expect((await command(t, commandBody({ text: 'history' }))).json.text).toBe(`No runs on ${CLUSTER} yet.`);
    await t.store.runs.put(
      waitingRecord({ runId: 'old', cluster: CLUSTER, queuedAt: '2025-06-02T02:10:00.000Z' }),
    );
    await t.store.runs.put(
      waitingRecord({
        runId: 'other-cluster',
        cluster: 'prod-us',
        queuedAt: '2025-06-02T02:20:00.000Z',
      }),
    );
    await command(t, commandBody({ text: 'run tunnel-datapath' }));
    const sent = t.queue.sent.length;

    const answer = await command(t, commandBody({ text: `history ${CLUSTER}`, trigger_id: '1.2.h' }));
    expect(answer.json).toEqual({
      response_type: 'ephemeral',
      text: [
        `*${CLUSTER}*: the last 2 runs`,
        '• 2025-06-02 03:00Z tunnel-datapath (dry-run, slack-command): queued, 0 planned',
        '• 2025-06-02 02:10Z unmanaged-pods (approve, alertmanager): needs-approval, 3 planned',
      ].join('\n'),
    });
    expect(t.queue.sent).toHaveLength(sent);
  });

  it('brake reset by an approver is said in the channel; by anyone else, refused to them only', async () => {
    const t = appUnderTest();
    const refused = await command(t, commandBody({ text: `brake reset ${CLUSTER}`, user_id: BYSTANDER }));
    expect(refused.json).toEqual({
      response_type: 'ephemeral',
      text: `<@${BYSTANDER}> is not an approver: ask one to reset the brake.`,
    });
    const reset = await command(t, commandBody({ text: `brake reset ${CLUSTER}`, user_id: APPROVER }));
    expect(reset.json.response_type).toBe('in_channel');
    await expectNoJob(t);
  });

  it.each(['run unmanaged-pods', 'run unmanaged-pods --apply', 'status'])(
    '"%s" with several clusters configured and none named → a clear error listing them, no job',
    async (text) => {
      const t = appUnderTest({ config: twoClusters() });
      const answer = await command(t, commandBody({ text, user_id: APPROVER }));
      expect(answer.status).toBe(200);
      expect(answer.json.response_type).toBe('ephemeral');
      expect(answer.json.text).toMatch(
        /^cluster: missing; 2 clusters are configured: prod-eu, prod-us\. Usage: `\/cilium (run|status) /,
      );
      await expectNoJob(t);
    },
  );

  it('with several clusters, naming one runs there', async () => {
    const t = appUnderTest({ config: twoClusters() });
    const answer = await command(t, commandBody({ text: 'run unmanaged-pods prod-us' }));
    expect(answer.json.text).toBe(
      'Queued unmanaged-pods on prod-us (dry-run). The report will be posted in #prod-us.',
    );
    expect(t.queue.sent.map((j) => j.cluster)).toEqual(['prod-us']);
  });

  it('an unknown runbook → names it and lists the valid ones, no job', async () => {
    const t = appUnderTest();
    const answer = await command(t, commandBody({ text: 'run unmanaged-pod --apply' }));
    expect(answer.json).toEqual({
      response_type: 'ephemeral',
      text: `runbook: no runbook "unmanaged-pod"; known: ${RUNBOOK_IDS.join(', ')}, all. Usage: \`/cilium run <runbook|all> [cluster] [--apply] [key=value...]\``,
    });
    await expectNoJob(t);
  });
});

describe('POST /slack/interactions (approvals)', () => {
  const PLAN = ['evict-pod:shop/checkout-a', 'evict-pod:shop/checkout-b', 'evict-pod:logging/log-shipper-x'];
  const waiting: RunRecord = waitingRecord({
    runId: 'run-0001',
    jobId: 'job-0',
    cluster: CLUSTER,
    plan: PLAN,
    queuedAt: '2025-06-02T02:55:00.000Z',
    finishedAt: '2025-06-02T02:56:00.000Z',
  });

  /** Slack's documented block_actions payload, pressed by `user` at `actionTs`, approving `keys`. */
  function press(t: AppUnderTest, user: string, actionTs: string, keys: string[]) {
    const payload = fixtureJson<{
      user: { id: string };
      actions: { value: string; action_ts: string }[];
    }>('triggers/slack-block-actions.json');
    payload.user.id = user;
    const [action] = payload.actions as [{ value: string; action_ts: string }];
    action.value = JSON.stringify({ runId: waiting.runId, approved: keys });
    action.action_ts = actionTs;
    const body = new URLSearchParams({ payload: JSON.stringify(payload) }).toString();
    return postSlack(t, '/slack/interactions', body, signedHeaders(body, t.clock.now()));
  }

  it('an approver resumes the run once, with exactly the approved keys; a double click adds nothing', async () => {
    const t = appUnderTest();
    await t.store.runs.put(waiting);
    const approved = PLAN.slice(0, 2);

    const first = await press(t, APPROVER, '1748833200.000100', approved);

    expect(first.status).toBe(200);
    expect(first.json).toEqual({
      response_type: 'ephemeral',
      replace_original: false,
      text: `Approved by <@${APPROVER}>: running the 2 approved actions, each re-checked against the cluster first.`,
    });
    expect(t.queue.sent).toHaveLength(1);
    expect(t.queue.sent[0]).toMatchObject({
      runbook: 'unmanaged-pods',
      cluster: CLUSTER,
      mode: 'approve',
      resume: { runId: 'run-0001', approved },
    });

    t.clock.advance(400);
    const second = await press(t, APPROVER, '1748833200.400200', approved);
    expect(second.status).toBe(200);
    expect(second.json.text).toBe('Already handled.');
    expect(t.queue.sent).toHaveLength(1);
  });

  it('a key that is not in the plan is not approved with the rest', async () => {
    const t = appUnderTest();
    await t.store.runs.put(waiting);
    await press(t, APPROVER, '1748833200.000100', [
      'evict-pod:shop/checkout-a',
      'evict-pod:kube-system/coredns-1',
    ]);
    expect(t.queue.sent.map((j) => j.resume?.approved)).toEqual([['evict-pod:shop/checkout-a']]);
  });

  it('a non-approver is refused, queues nothing, and does not use up the approval', async () => {
    const t = appUnderTest();
    await t.store.runs.put(waiting);

    const refused = await press(t, BYSTANDER, '1748833200.000100', PLAN);

    expect(refused.status).toBe(200);
    expect(refused.json).toMatchObject({
      response_type: 'ephemeral',
      text: `<@${BYSTANDER}> may not approve unmanaged-pods runs`,
    });
    expect(t.queue.sent).toEqual([]);
    expect(await t.store.runs.get('run-0001')).toEqual(waiting);

    await press(t, APPROVER, '1748833200.900000', PLAN);
    expect(t.queue.sent.map((j) => j.resume?.approved)).toEqual([PLAN]);
  });
});

/** The worker side wired as `responder serve` wires it: memoryQueue → runJob, with a console sink. */
function workerQueue(options: {
  store: StateStore;
  config: ReturnType<typeof testConfig>;
  access: () => Promise<ClusterAccess>;
  events?: string[];
  out?: NodeJS.WritableStream;
}): MemoryQueue {
  return memoryQueue({
    retryDelayMs: 10,
    handle: async (job) => {
      options.events?.push(`start ${job.id}`);
      try {
        return await runJob(job, {
          config: options.config,
          store: options.store,
          runbooks: RUNBOOKS,
          connect: options.access,
          chat: consoleSink(options.out ?? collector().stream),
          defaultChannel: '#cilium-responder',
          now: () => new Date(),
          log: SILENT,
        });
      } finally {
        options.events?.push(`end ${job.id}`);
      }
    },
  });
}

describe('Slack acknowledgement while the cluster is stalled', () => {
  let scenario: SimUnderTest | undefined;
  let closeServer: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await closeServer?.();
    await scenario?.sim.close();
    scenario = undefined;
    closeServer = undefined;
  });

  it('answers over a real port well under 3 s, before the job (stuck on the cluster) finishes', async () => {
    scenario = await startScenario(['unmanaged-pods']);
    const { sim } = scenario;
    const config = testConfig();
    const store = memoryStore();
    const events: string[] = [];
    const out = collector();
    const queue = workerQueue({
      store,
      config,
      events,
      out: out.stream,
      // The production path for a sim cluster: connect() with its kubeconfig, default timeouts.
      access: () => connect({ kind: 'sim', kubeconfig: sim.kubeconfig(), ciliumNamespace: 'kube-system' }),
    });
    const app = createHttpApp({
      app: appOf({
        config,
        store,
        queue,
        runbooks: RUNBOOK_IDS,
        now: () => new Date(),
        newId: () => 'job-stalled',
      }),
      secrets: { slackSigningSecret: SLACK_SECRET },
    });
    const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
    await new Promise<void>((resolve) => server.once('listening', () => resolve()));
    closeServer = () => new Promise<void>((resolve) => server.close(() => resolve()));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

    sim.faults.set('list', { latencyMs: 10_000 });
    sim.faults.set('get', { latencyMs: 10_000 });
    // The stall is real: a read through the API server now takes the full 10 s.
    const probeStarted = performance.now();
    const probe = simAccess(sim)
      .kube.get(RESOURCES.namespaces, undefined, 'default')
      .catch(() => undefined)
      .then(() => performance.now() - probeStarted);

    const body = commandBody({ text: `run unmanaged-pods on ${CLUSTER} mode=auto`, user_id: APPROVER });
    const sentAt = performance.now();
    const response = await fetch(`${url}/slack/commands`, {
      method: 'POST',
      headers: signedHeaders(body, new Date()),
      body,
    });
    const answer = (await response.json()) as { text: string };
    const elapsed = performance.now() - sentAt;
    events.push('answer');
    const atAnswer = await store.runs.get('job-stalled');

    expect(response.status).toBe(200);
    expect(answer.text).toMatch(/^Queued unmanaged-pods on prod-eu \(auto\)/);
    expect(elapsed).toBeLessThan(1_000);
    expect(['queued', 'running']).toContain(atAnswer?.status);
    expect(events).not.toContain('end job-stalled');

    // The worker meanwhile is inside the run, stuck on the cluster's first reads.
    await expect.poll(async () => (await store.runs.get('job-stalled'))?.status).toBe('running');
    await sleep(1_000);
    expect(events).not.toContain('end job-stalled');
    expect((await store.runs.get('job-stalled'))?.status).toBe('running');

    sim.faults.clear();
    await queue.idle();
    // The job did wait on the stalled cluster: it finished long after the answer was sent.
    expect(events.indexOf('answer')).toBeLessThan(events.indexOf('end job-stalled'));
    const finished = await store.runs.get('job-stalled');
    expect(finished?.status).toBe('done');
    expect(Date.parse(finished?.finishedAt ?? '') - Date.parse(finished?.queuedAt ?? '')).toBeGreaterThan(
      5_000,
    );
    expect(out.text()).toContain(`[#${CLUSTER} · ${CLUSTER}/unmanaged-pods · new]`);
    expect(await probe).toBeGreaterThan(9_000);
  }, 30_000);
});

describe('the brake across sources', () => {
  let scenario: SimUnderTest | undefined;
  afterEach(async () => {
    await scenario?.sim.close();
    scenario = undefined;
  });

  it('stops the N+1th cluster write whichever source asked, until an approver resets it', async () => {
    scenario = await startScenario(['unmanaged-pods']);
    const { sim, plan } = scenario;
    const evictable = plan.unmanagedPods?.evictable ?? [];
    expect(evictable).toHaveLength(3);
    const config = testConfig({ maxWrites: 2 });
    const store = memoryStore();
    // As connect() names it: after the cluster the API serves, not the config's name for it.
    const access = simAccess(sim);
    const queue = workerQueue({ store, config, access: async () => access });
    // The app on the same store, queueing into the worker; real time, so the brake window is now.
    let ids = 0;
    const clock = { ...testClock(new Date()), now: () => new Date() };
    const t: Client = {
      clock,
      app: createHttpApp({
        app: appOf({
          config,
          store,
          queue,
          runbooks: RUNBOOK_IDS,
          now: () => new Date(),
          newId: () => `run-${++ids}`,
        }),
        secrets: { slackSigningSecret: SLACK_SECRET, alertmanagerToken: ALERTMANAGER_TOKEN },
      }),
    };

    /** The planted evictable pods still there (by uid), as `namespace/name`. */
    const remaining = async () => {
      const uids = new Set(
        (await access.kube.list(RESOURCES.pods, { project: 'metadata' })).map((p) => p.metadata.uid),
      );
      return evictable.filter((pod) => uids.has(pod.uid)).map((pod) => `${pod.namespace}/${pod.name}`);
    };
    const podsGone = async () => evictable.length - (await remaining()).length;
    const evictions = (record: RunRecord | undefined) =>
      (record?.actions ?? []).filter((a) => a.startsWith('evict-pod ') && a.includes(': done'));
    const braked = (record: RunRecord | undefined) =>
      (record?.actions ?? []).filter((a) => a.includes('brake engaged'));

    // 1. Alertmanager: CiliumUnmanagedPods on prod-eu routes to unmanaged-pods in auto.
    const webhook = webhookFixture();
    const sample = webhook.alerts[0] as Webhook['alerts'][number];
    sample.labels.alertname = 'CiliumUnmanagedPods';
    webhook.commonLabels.alertname = 'CiliumUnmanagedPods';
    webhook.groupKey = '{}:{alertname="CiliumUnmanagedPods"}';
    const alerted = await postAlert(t, webhook);
    expect(alerted.json.queued).toMatchObject([{ runbook: 'unmanaged-pods', mode: 'auto' }]);
    await queue.idle();
    const first = await store.runs.get('run-1');

    // 2. Slack: the same runbook, auto, in the same window.
    const asked = await command(
      t,
      commandBody({
        text: `run unmanaged-pods on ${CLUSTER} mode=auto`,
        trigger_id: '1.2.a',
        user_id: APPROVER,
      }),
    );
    expect(asked.json.text).toMatch(/^Queued/);
    await queue.idle();
    const second = await store.runs.get('run-2');

    expect(queue.deadLetters).toEqual([]);
    expect([first?.status, second?.status]).toEqual(['done', 'done']);
    // N = 2 writes in the window across both sources, as the API server saw them.
    expect(evictions(first)).toHaveLength(2);
    expect(evictions(second)).toEqual([]);
    expect(await podsGone()).toBe(2);
    // The evictable pod left over was refused by the brake in both runs, and says so.
    const left = (await remaining())[0];
    expect(left).toBeDefined();
    for (const record of [first, second]) {
      expect(
        braked(record).some((line) => line.startsWith(`evict-pod ${left}: blocked (brake engaged`)),
      ).toBe(true);
      for (const line of braked(record)) expect(line).toMatch(/^evict-pod \S+: blocked \(brake engaged: /);
    }

    const status = await command(t, commandBody({ text: `status ${CLUSTER}`, trigger_id: '1.2.b' }));
    expect(status.json.text).toContain(`*${CLUSTER}*: brake ENGAGED (2/2 writes this window)`);
    // Status also looks at the cluster: every runbook as a dry run, reports to the channel.
    expect(status.json.text).toContain(`Queued ${RUNBOOK_IDS.join(', ')} on ${CLUSTER} (dry-run)`);
    await queue.idle();

    // 3. A reset: refused for a bystander, done for an approver; then writes go again.
    const refused = await command(
      t,
      commandBody({ text: `brake reset ${CLUSTER}`, user_id: BYSTANDER, trigger_id: '1.2.c' }),
    );
    expect(refused.json.text).toBe(`<@${BYSTANDER}> is not an approver: ask one to reset the brake.`);
    const reset = await command(
      t,
      commandBody({ text: `brake reset ${CLUSTER}`, user_id: APPROVER, trigger_id: '1.2.d' }),
    );
    expect(reset.json).toEqual({
      response_type: 'in_channel',
      text: `Brake on ${CLUSTER} reset by <@${APPROVER}>: cluster writes may go again.`,
    });

    await command(
      t,
      commandBody({
        text: `run unmanaged-pods on ${CLUSTER} mode=auto`,
        trigger_id: '1.2.e',
        user_id: APPROVER,
      }),
    );
    await queue.idle();
    const third = (await store.runs.list()).find((r) => r.mode === 'auto');
    expect(third?.runId).not.toBe(second?.runId);
    expect(evictions(third)).toHaveLength(1);
    expect(braked(third)).toEqual([]);
    expect(await podsGone()).toBe(3);
  }, 30_000);
});
