import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Template } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { TABLE_OPERATIONS } from '../../cdk/table-grants.ts';
import { type Sim, startSim } from '../../sim/index.ts';
import { deployedConfigText } from '../../src/config/deployed-text.ts';
import { parseConfig } from '../../src/config/load.ts';
import { dynamoStore } from '../../src/store/index.ts';
import { fixtureJson, sqsRecord } from '../functions/harness.ts';
import { startFakeAws } from '../helpers/fake-aws.ts';
import { startRecordingProxy } from '../helpers/recording-proxy.ts';
import {
  alertmanagerEvent,
  type Bundled,
  deliverToEach,
  functionUrlEvent,
  type Rehearsal,
  synthRehearsal,
} from '../helpers/rehearsal.ts';
import { shippedRules } from '../helpers/shipped-rbac.ts';
import { growingGroup, stormOutcome } from '../helpers/storm.ts';
import { startFakeSlack } from '../src/slack/fake-slack.ts';
import { type LocalDynamoDB, startLocalDynamoDB } from '../src/store/local-dynamodb.ts';

/**
 * The deployed wiring, rehearsed offline: the stack is synthesized with its real bundles, and the
 * bundled handlers run in this process with the environment the template gives them, against
 * stand-ins: dynalite for DynamoDB, a local server answering like SQS, Secrets Manager and EKS
 * (which describes only the clusters the template lets the worker describe), a local Slack, and the
 * simulator as the cluster, accepting the EKS token with exactly the shipped RBAC. The secrets start
 * as the template generates them; the Slack fields are put as the README says.
 */
const CONFIG = `
clusters:
  - name: prod-eu
    eks: { name: prod-eu, region: eu-west-1 }
    channel: '#prod-eu'
routes:
  - match: { source: alertmanager, alertname: CiliumUnmanagedPods }
    runbook: unmanaged-pods
    mode: auto
  - match: { source: cloudwatch, alarmName: ServerCpuTooHigh }
    cluster: prod-eu
    runbook: tunnel-datapath
  - match: { source: cloudwatch, alarmName: EXAMPLE }
    cluster: prod-eu
    runbook: cgroup-root-hooks
schedules:
  - name: nightly
    expression: cron(0 3 * * ? *)
    runbooks: [host-identity]
`;

describe('the deployed wiring, rehearsed', () => {
  let sim: Sim;
  let dynamo: LocalDynamoDB;
  let aws: Awaited<ReturnType<typeof startFakeAws>>;
  let slack: Awaited<ReturnType<typeof startFakeSlack>>;
  let template: Template;
  let outdir: string;
  let rehearsal: Rehearsal;
  let dynamoOps: Awaited<ReturnType<typeof startRecordingProxy>>;
  /** SecretString by ARN, as Secrets Manager holds them. */
  let secrets: Map<string, string>;
  /** The generated alertmanagerToken, as `aws secretsmanager get-secret-value ... | jq` reads it. */
  let TOKEN = '';
  const saved = { ...process.env };

  beforeAll(async () => {
    sim = await startSim({ scenarios: ['unmanaged-pods'] });
    sim.auth.acceptEksTokens('cilium-responder-worker', shippedRules());
    dynamo = await startLocalDynamoDB();
    slack = await startFakeSlack();
    rehearsal = synthRehearsal(CONFIG);
    ({ template, outdir, secrets } = rehearsal);
    dynamoOps = await startRecordingProxy(dynamo.endpoint);
    aws = await startFakeAws({
      cluster: { endpoint: sim.url, caData: Buffer.from(sim.caPem).toString('base64') },
      // DescribeCluster answers only for clusters the template's worker policy names.
      describable: rehearsal.describable,
      secrets,
    });
  }, 180_000);

  afterAll(async () => {
    process.env = saved;
    await Promise.all([sim?.close(), dynamo?.stop(), aws?.close(), slack?.close(), dynamoOps?.close()]);
  });

  /** A function's bundle, loaded with the environment the template gives it (resources made local). */
  const load = (logicalPrefix: string, table: string, overrides: Record<string, string> = {}) =>
    rehearsal.load(
      logicalPrefix,
      table,
      {
        aws: aws.url,
        // Through the proxy, which notes the operations each function performs.
        dynamodb: (prefix) => `${dynamoOps.url}/${prefix}`,
        slack: slack.url,
      },
      overrides,
    );

  const functionUrlAlert = (body: string) => alertmanagerEvent(body, TOKEN);

  function alert(cluster: string): string {
    return JSON.stringify({
      version: '4',
      status: 'firing',
      receiver: 'cilium-responder',
      groupKey: `{}:{alertname="CiliumUnmanagedPods", cluster="${cluster}"}`,
      truncatedAlerts: 0,
      groupLabels: { alertname: 'CiliumUnmanagedPods' },
      commonLabels: { alertname: 'CiliumUnmanagedPods', cluster },
      commonAnnotations: {},
      externalURL: 'http://alertmanager:9093',
      alerts: [
        {
          status: 'firing',
          labels: { alertname: 'CiliumUnmanagedPods', cluster },
          annotations: { summary: 'pods without a CiliumEndpoint' },
          startsAt: '2026-11-24T05:00:00Z',
          endsAt: '0001-01-01T00:00:00Z',
          generatorURL: 'http://prometheus:9090/graph',
          fingerprint: 'c0ffee0123456789',
        },
      ],
    });
  }

  function sqsEvent(bodies: string[]) {
    return {
      Records: bodies.map((body, index) => sqsRecord(body, 1, `m-${index}`)),
    };
  }

  /** What the functions log while `work` runs (Powertools writes JSON lines to stdout or stderr). */
  async function logged(work: () => Promise<void>): Promise<string[]> {
    const lines: string[] = [];
    const spies = [vi.spyOn(process.stdout, 'write'), vi.spyOn(process.stderr, 'write')];
    for (const spy of spies)
      spy.mockImplementation((chunk: string | Uint8Array) => {
        lines.push(...String(chunk).split('\n').filter(Boolean));
        return true;
      });
    try {
      await work();
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
    return lines;
  }

  const request = functionUrlEvent;

  it('as synthesized (Slack fields empty) every function starts, says once what is missing, and the http function answers 503 naming it', async () => {
    const table = await dynamo.createTable();
    const http = { bundle: undefined as Bundled | undefined };
    const coldStart = await logged(async () => {
      http.bundle = await load('Http', table);
    });
    const missing = coldStart.filter((line) => line.includes('secret fields empty or missing'));
    expect(missing).toHaveLength(1);
    expect(missing[0]).toMatch(/slackSigningSecret \(secret arn:aws:secretsmanager:[^)]*:ResponderSecrets/);
    expect(missing[0]).toMatch(/slackBotToken/);
    expect(missing[0]).not.toMatch(/alertmanagerToken|operatorToken/);
    const slash = (await http.bundle?.handler(
      request(
        'POST',
        '/slack/commands',
        { 'content-type': 'application/x-www-form-urlencoded' },
        'command=%2Fcilium',
      ),
    )) as { statusCode: number; body: string };
    expect(slash.statusCode).toBe(503);
    expect(JSON.parse(slash.body).error).toMatch(
      /^the server has no slackSigningSecret in secret arn:.*ResponderSecrets/,
    );
    // The operator token was generated: the audit trail answers with it, and only with it.
    const operatorSecret = [...secrets.entries()].find(([arn]) => arn.includes('OperatorToken'));
    const operatorToken = JSON.parse(operatorSecret?.[1] ?? '{}').operatorToken;
    const runs = (await http.bundle?.handler(
      request('GET', '/runs', { authorization: `Bearer ${operatorToken}` }),
    )) as {
      statusCode: number;
    };
    expect(runs.statusCode).toBe(200);
    // The other functions start too, each saying once that reports cannot reach Slack yet.
    for (const name of ['Alarm', 'Sweep', 'Worker']) {
      const lines = await logged(async () => {
        await load(name, table);
      });
      expect(
        lines.filter((line) => line.includes('secret fields empty or missing: slackBotToken')),
        name,
      ).toHaveLength(1);
    }

    // As the README says: read the generated alertmanagerToken, put the Slack fields beside it.
    const [mainArn, main] = [...secrets.entries()].find(([arn]) => arn.includes('ResponderSecrets')) ?? [];
    const generated = JSON.parse(main as string);
    TOKEN = generated.alertmanagerToken;
    expect(TOKEN).toMatch(/^generated-/);
    secrets.set(
      mainArn as string,
      JSON.stringify({ ...generated, slackSigningSecret: 'rehearsal', slackBotToken: 'xoxb-rehearsal' }),
    );
  }, 120_000);

  it('an Alertmanager alert posted to the http function ends as a report the worker posts to Slack', async () => {
    const table = await dynamo.createTable();
    const http = await load('Http', table);
    const answer = (await http.handler(functionUrlAlert(alert('prod-eu')), { awsRequestId: 'r-1' })) as {
      statusCode: number;
      body: string;
    };
    expect(answer.statusCode, answer.body).toBe(202);
    const jobs = aws.sent.get(`${aws.url}/111122223333/jobs`) ?? [];
    expect(jobs).toHaveLength(1);

    const worker = await load('Worker', table);
    let batch = { batchItemFailures: [{}] };
    const lines = await logged(async () => {
      batch = (await worker.handler(sqsEvent(jobs), { awsRequestId: 'r-2' })) as typeof batch;
    });
    expect(batch.batchItemFailures).toEqual([]);
    // The stack's brake alarm reads this metric, published as EMF with each report.
    const emf = lines.map((line) => JSON.parse(line)).filter((entry) => entry._aws);
    expect(emf).toEqual([expect.objectContaining({ BrakeTrips: 0 })]);
    // The same job delivered again makes no report, and so no metric, and no warning about it.
    const again = await logged(async () => {
      await worker.handler(sqsEvent(jobs), { awsRequestId: 'r-3' });
    });
    expect(again.filter((line) => line.includes('_aws') || line.includes('metrics'))).toEqual([]);
    const posts = slack.calls.filter((call) => call.method === 'chat.postMessage');
    expect(posts.map((post) => post.params.channel)).toEqual(['#prod-eu']);
    expect(posts[0]?.params.text).toMatch(/unmanaged-pods on prod-eu/);
    expect(aws.calls.some((call) => call.service === 'eks' && call.action === 'GET /clusters/prod-eu')).toBe(
      true,
    );
  }, 120_000);

  /** Job messages sent to the jobs queue since `from`. */
  const jobsSince = (from: number) => (aws.sent.get(`${aws.url}/111122223333/jobs`) ?? []).slice(from);
  const jobsSent = () => (aws.sent.get(`${aws.url}/111122223333/jobs`) ?? []).length;

  it('with no Slack bot token yet, a run still runs and is recorded; its report waits in the audit trail and the log says why', async () => {
    const [arn, saved] = [...secrets.entries()].find(([key]) => key.includes('ResponderSecrets')) as [
      string,
      string,
    ];
    secrets.set(arn, JSON.stringify({ ...JSON.parse(saved), slackBotToken: '' }));
    try {
      const table = await dynamo.createTable();
      const http = await load('Http', table);
      const from = jobsSent();
      await http.handler(functionUrlAlert(alert('prod-eu')), { awsRequestId: 'r-nobot' });
      const worker = await load('Worker', table);
      const calls = slack.calls.length;
      let batch: { batchItemFailures: unknown[] } = { batchItemFailures: [{}] };
      const lines = await logged(async () => {
        batch = (await worker.handler(sqsEvent(jobsSince(from)), {
          awsRequestId: 'r-nobot-2',
        })) as typeof batch;
      });
      expect(batch.batchItemFailures).toEqual([]);
      expect(slack.calls.slice(calls)).toEqual([]);
      const [record] = await dynamoStore({ client: dynamo.client, table }).runs.list();
      expect(record).toMatchObject({ status: 'done', runbook: 'unmanaged-pods' });
      expect(record?.report?.verdict).toBe(record?.verdict);
      expect(record?.posted).toBeUndefined();
      expect(
        lines.filter((line) => line.includes(`the report of run ${record?.runId} was not posted`)),
      ).toEqual([
        expect.stringMatching(
          /Slack is not configured: slackBotToken is empty in secret arn:[^ ]*ResponderSecrets/,
        ),
      ]);
    } finally {
      secrets.set(arn, saved);
    }
  }, 120_000);

  it('a storm of growing alert groups through the http function and several workers, with redeliveries: at most one run and one follow-up, never at once', async () => {
    const table = await dynamo.createTable();
    const http = await load('Http', table);
    const workers = [await load('Worker', table), await load('Worker', table)];
    const from = jobsSent();
    let delivered = 0;
    /** Hands what the jobs queue holds to both workers (see deliverToEach); every job ends. */
    const pump = async () => {
      const bodies = jobsSince(from).slice(delivered);
      delivered += bodies.length;
      expect(await deliverToEach(bodies, workers, `s-${delivered}`)).toEqual([]);
    };
    await logged(async () => {
      for (let n = 0; n < 12; n++) {
        const body = JSON.stringify(growingGroup('prod-eu', 'CiliumUnmanagedPods', n));
        const answer = (await http.handler(functionUrlAlert(body), { awsRequestId: `storm-${n}` })) as {
          statusCode: number;
        };
        expect(answer.statusCode).toBe(202);
        if (n % 4 === 3) await pump();
      }
      while (jobsSince(from).length > delivered) await pump();
    });
    const records = await dynamoStore({ client: dynamo.client, table }).runs.list();
    expect(stormOutcome(records)).toEqual({ pairs: 1, mostRunsPerPair: 2, overlaps: 0 });
    expect(records.map((r) => r.status)).toEqual(['done', 'done']);
    expect(records.filter((r) => /^CiliumUnmanagedPods \(follow-up of run /.test(r.reason))).toHaveLength(1);
  }, 180_000);

  it('the alarm function takes EventBridge and SNS alarm events, the sweep function the Scheduler event', async () => {
    const table = await dynamo.createTable();
    const queued = () => (aws.sent.get(`${aws.url}/111122223333/jobs`) ?? []).length;
    const before = queued();
    const alarm = await load('Alarm', table);
    await alarm.handler(fixtureJson('triggers/cloudwatch-eventbridge-single-metric.json'));
    await alarm.handler(fixtureJson('triggers/cloudwatch-sns-lambda-single-metric.json'));
    const sweep = await load('Sweep', table);
    // What the stack's schedule sends (cdk/cilium-responder.ts), the time filled in by Scheduler.
    const input = JSON.parse(
      template.findResources('AWS::Scheduler::Schedule')[
        Object.keys(template.findResources('AWS::Scheduler::Schedule'))[0] as string
      ]?.Properties.Target.Input,
    );
    await sweep.handler({ ...input, scheduledTime: '2026-11-24T03:00:00Z' });
    const jobs = (aws.sent.get(`${aws.url}/111122223333/jobs`) ?? [])
      .slice(before)
      .map((body) => JSON.parse(body));
    expect(queued() - before).toBe(3);
    expect(jobs.map((job) => [job.trigger.source, job.runbook])).toEqual([
      ['cloudwatch', 'tunnel-datapath'],
      ['cloudwatch', 'cgroup-root-hooks'],
      ['schedule', 'host-identity'],
    ]);
  }, 120_000);

  it('fails a config naming a cluster the template does not grant', async () => {
    const table = await dynamo.createTable();
    // As the stack would ship it (validated, JSON) had the config named it.
    const other = join(outdir, 'other.config.json');
    writeFileSync(other, deployedConfigText(parseConfig(CONFIG.replaceAll('prod-eu', 'staging'))));
    const http = await load('Http', table, { RESPONDER_CONFIG: other });
    await http.handler(functionUrlAlert(alert('staging')), { awsRequestId: 'r-3' });
    const jobs = (aws.sent.get(`${aws.url}/111122223333/jobs`) ?? []).slice(-1);
    const worker = await load('Worker', table, { RESPONDER_CONFIG: other });
    const posted = slack.calls.length;
    // The whole batch failed, so Lambda returns it to SQS (and, in the end, to the DLQ with its reason).
    const failure = await worker
      .handler(sqsEvent(jobs), { awsRequestId: 'r-4' })
      .catch((error: unknown) => error);
    expect(String(failure)).toMatch(/All records failed/);
    const errors = (failure as { recordErrors?: unknown[] }).recordErrors ?? [];
    expect(String(errors[0])).toMatch(/not allowed to describe EKS cluster "staging"/);
    expect(aws.calls.filter((call) => call.service === 'eks').pop()?.action).toBe('GET /clusters/staging');
    expect(slack.calls.slice(posted).filter((call) => call.method === 'chat.postMessage')).toEqual([]);
  }, 120_000);

  it('no function performed a table operation its grant does not include', () => {
    const performed = Object.fromEntries(
      [...dynamoOps.performed].map(([caller, operations]) => [caller, [...operations].sort()]),
    );
    expect(Object.keys(performed).sort()).toEqual(['Alarm', 'Http', 'Sweep', 'Worker']);
    for (const [name, operations] of Object.entries(performed))
      for (const operation of operations)
        expect(TABLE_OPERATIONS[name as keyof typeof TABLE_OPERATIONS], `${name}: ${operation}`).toContain(
          operation,
        );
  });
});
