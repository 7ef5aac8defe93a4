import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Writable } from 'node:stream';
import type { SQSRecord } from 'aws-lambda';
import { createHttpApp, type HttpAppDeps } from '../../functions/http-app.ts';
import { RUNBOOK_CATALOG } from '../../runbooks/catalog.ts';
import { RUNBOOKS } from '../../runbooks/index.ts';
import { type App, createApp } from '../../src/app/app.ts';
import { consoleSink } from '../../src/chat/console.ts';
import { parseConfig } from '../../src/config/load.ts';
import type { ResponderConfig } from '../../src/config/schema.ts';
import { SILENT } from '../../src/engine/run.ts';
import type { Job } from '../../src/queue/job.ts';
import type { JobQueue } from '../../src/queue/types.ts';
import type { DispatchContext } from '../../src/routing/dispatch.ts';
import { memoryStore } from '../../src/store/index.ts';
import type { StateStore } from '../../src/store/types.ts';

export const RUNBOOK_IDS = RUNBOOKS.map((runbook) => runbook.id);
export const SLACK_SECRET = 'test-signing-secret-7c1f0e9d2b';
export const ALERTMANAGER_TOKEN = 'am-token-4f2a9c';
export const OPERATOR_TOKEN = 'op-token-9d1e77';
export const APPROVER = 'U0APPROVER1';
export const BYSTANDER = 'U0BYSTANDER';
export const CLUSTER = 'prod-eu';

/**
 * The config every test here starts from, as YAML through the real loader: one simulated cluster
 * (named like the fixtures' `cluster` label), routes for two alert names, the brake, an approver.
 */
export function configText(options: { maxWrites?: number } = {}): string {
  return `
clusters:
  - name: ${CLUSTER}
    sim:
      scenarios: [unmanaged-pods]
    channel: '#${CLUSTER}'
routes:
  - match: { source: alertmanager, alertname: ProbeFailure }
    runbook: host-identity
    mode: dry-run
  - match: { source: alertmanager, alertname: CiliumUnmanagedPods }
    runbook: unmanaged-pods
    mode: auto
limits:
  brake:
    maxWrites: ${options.maxWrites ?? 20}
    windowMinutes: 15
approvers:
  unmanaged-pods: [${APPROVER}]
`;
}

export function testConfig(options: { maxWrites?: number } = {}): ResponderConfig {
  return parseConfig(configText(options), 'test-config.yaml', { runbooks: RUNBOOK_IDS });
}

/** A queue that only records what was sent, so "no job was enqueued" is asserted exactly. */
export interface RecordingQueue extends JobQueue {
  readonly sent: Job[];
}

export function recordingQueue(): RecordingQueue {
  const sent: Job[] = [];
  return {
    sent,
    async send(job) {
      // As through SQS: the job travels as JSON.
      sent.push(JSON.parse(JSON.stringify(job)) as Job);
    },
  };
}

export function fixtureText(path: string): string {
  return readFileSync(new URL(`../fixtures/${path}`, import.meta.url), 'utf8');
}

export function fixtureJson<T = Record<string, unknown>>(path: string): T {
  return JSON.parse(fixtureText(path)) as T;
}

/** Slack's v0 signature, computed here independently of src/chat/signature.ts. */
/** An Alertmanager notification the test config routes to unmanaged-pods in auto mode. */
export function unmanagedAlert(): unknown {
  const webhook = fixtureJson<{ alerts: { labels: Record<string, string> }[] }>(
    'triggers/alertmanager-v4.json',
  );
  for (const alert of webhook.alerts) {
    alert.labels.alertname = 'CiliumUnmanagedPods';
    alert.labels.cluster = CLUSTER;
  }
  return { ...webhook, commonLabels: { alertname: 'CiliumUnmanagedPods', cluster: CLUSTER } };
}

export function slackSignature(secret: string, timestamp: string, body: string): string {
  return `v0=${createHmac('sha256', secret).update(`v0:${timestamp}:${body}`).digest('hex')}`;
}

export const FORM = 'application/x-www-form-urlencoded';

/** Headers of a Slack request signed with `secret` at `at`. */
export function signedHeaders(body: string, at: Date, secret = SLACK_SECRET): Record<string, string> {
  const timestamp = String(Math.floor(at.getTime() / 1000));
  return {
    'content-type': FORM,
    'x-slack-request-timestamp': timestamp,
    'x-slack-signature': slackSignature(secret, timestamp, body),
  };
}

/** A slash command body: Slack's documented fields (from the run fixture) with `changes` applied. */
export function commandBody(changes: Record<string, string | undefined> = {}): string {
  const form = new URLSearchParams(fixtureText('triggers/slack-slash-command-run.txt'));
  for (const [key, value] of Object.entries(changes)) {
    if (value === undefined) form.delete(key);
    else form.set(key, value);
  }
  return form.toString();
}

/** A mutable clock. */
export function testClock(start: Date) {
  let current = start;
  return {
    now: () => current,
    set(at: Date) {
      current = at;
    },
    advance(ms: number) {
      current = new Date(current.getTime() + ms);
    },
  };
}

/** The composition root over test ports, from what a test has at hand (a dispatch context). */
export function appOf(dispatch: Omit<DispatchContext, 'runbookInfo'>): App {
  return createApp({
    config: dispatch.config,
    runbookIds: dispatch.runbooks,
    runbookInfo: RUNBOOK_CATALOG,
    store: dispatch.store,
    queue: dispatch.queue,
    chat: dispatch.chat ?? consoleSink(collector().stream),
    ...(dispatch.directory ? { directory: dispatch.directory } : {}),
    defaultChannel: dispatch.defaultChannel ?? '#cilium-responder',
    now: dispatch.now,
    newId: dispatch.newId,
    log: SILENT,
  });
}

/** The http app's secrets in tests: Slack's signing secret, the webhook and operator tokens. */
export const TEST_SECRETS = {
  slackSigningSecret: SLACK_SECRET,
  alertmanagerToken: ALERTMANAGER_TOKEN,
  operatorToken: OPERATOR_TOKEN,
};

export interface AppUnderTest {
  app: ReturnType<typeof createHttpApp>;
  dispatch: DispatchContext;
  store: StateStore;
  queue: RecordingQueue;
  clock: ReturnType<typeof testClock>;
}

/** The HTTP app with the in-memory store, a recording queue and a settable clock. */
export function appUnderTest(
  options: {
    maxBodyBytes?: number;
    start?: Date;
    config?: ResponderConfig;
    onTooLarge?: HttpAppDeps['onTooLarge'];
  } = {},
): AppUnderTest {
  const store = memoryStore();
  const queue = recordingQueue();
  const clock = testClock(options.start ?? new Date('2025-06-02T03:00:00Z'));
  let ids = 0;
  const dispatch: DispatchContext = {
    config: options.config ?? testConfig(),
    store,
    queue,
    runbooks: RUNBOOK_IDS,
    runbookInfo: RUNBOOK_CATALOG,
    now: clock.now,
    newId: () => `job-${++ids}`,
  };
  const app = createHttpApp({
    app: appOf(dispatch),
    secrets: TEST_SECRETS,
    ...(options.maxBodyBytes ? { maxBodyBytes: options.maxBodyBytes } : {}),
    ...(options.onTooLarge ? { onTooLarge: options.onTooLarge } : {}),
  });
  return { app, dispatch, store, queue, clock };
}

/** A stream that keeps what is written to it (for the console chat sink). */
export function collector(): { stream: Writable; text: () => string } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, callback) {
      chunks.push(String(chunk));
      callback();
    },
  });
  return { stream, text: () => chunks.join('') };
}

/** An SQS record as Lambda hands it over: `body` as the queue holds it, delivered for the `receiveCount`th time. */
export function sqsRecord(body: string, receiveCount = 1, messageId = 'm-1'): SQSRecord {
  return {
    messageId,
    receiptHandle: `AQEB-${messageId}-${receiveCount}`,
    body,
    attributes: {
      ApproximateReceiveCount: String(receiveCount),
      SentTimestamp: '1748833200000',
      SenderId: 'AIDAEXAMPLE',
      ApproximateFirstReceiveTimestamp: '1748833200100',
    },
    messageAttributes: {},
    md5OfBody: '0'.repeat(32),
    eventSource: 'aws:sqs',
    eventSourceARN: 'arn:aws:sqs:eu-west-1:123456789012:cilium-responder-jobs',
    awsRegion: 'eu-west-1',
  };
}

/** A job's SQS record, delivered for the `receiveCount`th time. */
export const jobRecord = (job: Job, receiveCount: number): SQSRecord =>
  sqsRecord(JSON.stringify(job), receiveCount, `m-${job.id}`);
