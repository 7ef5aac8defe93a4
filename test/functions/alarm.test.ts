import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { App } from '../../src/app/app.ts';
import { parseConfig } from '../../src/config/load.ts';
import type { Dispatched } from '../../src/routing/dispatch.ts';
import { memoryStore } from '../../src/store/index.ts';
import { parseAlertmanager } from '../../src/triggers/alertmanager.ts';
import type { Trigger } from '../../src/triggers/types.ts';
import { TriggerError } from '../../src/validation/trigger-error.ts';
import { AMP_CAPTURES, ampCapture } from '../src/triggers/fixtures.ts';
import { appOf, fixtureJson, type RecordingQueue, RUNBOOK_IDS, recordingQueue } from './harness.ts';

/**
 * The alarm function as deployed (functions/alarm.ts), its composition root swapped for the test
 * ports: each form CloudWatch delivers an alarm in goes all the way to a queued job.
 */
const ports = vi.hoisted(() => ({
  app: undefined as App | undefined,
  results: [] as Dispatched[],
  warnings: [] as { message: string; data?: Record<string, unknown> }[],
}));

// The handler keeps what lambdaRuntime returned at cold start; it reaches each test's own app.
vi.mock('../../functions/runtime.ts', () => ({
  lambdaRuntime: async () => ({
    app: {
      ports: {
        log: {
          info() {},
          error() {},
          warn: (message: string, data?: Record<string, unknown>) => ports.warnings.push({ message, data }),
        },
      },
      async dispatch(trigger: Trigger) {
        const result = await (ports.app as App).dispatch(trigger);
        ports.results.push(result);
        return result;
      },
    },
  }),
}));

const config = parseConfig(
  `
clusters:
  - name: prod-eu
    sim: { scenarios: [healthy] }
  - name: payments
    eks: { name: payments-prod-7f3a, region: us-east-1 }
  - name: payments-eu
    eks: { name: payments-prod-7f3a, region: eu-west-1 }
routes:
  - match: { source: cloudwatch, alarmName: ServerCpuTooHigh }
    cluster: prod-eu
    runbook: host-identity
  - match: { source: cloudwatch, dimensions: { Namespace: ContainerInsights } }
    runbook: tunnel-datapath
  - match: { source: alertmanager, alertname: CiliumUnmanagedPods }
    runbook: unmanaged-pods
    mode: auto
  - match: { alertname: CiliumClusterIPUnreachable }
    runbook: cgroup-root-hooks
`,
  'alarm-test.yaml',
  { runbooks: RUNBOOK_IDS },
);

let queue: RecordingQueue;

function freshApp(into: RecordingQueue): App {
  let ids = 0;
  return appOf({
    config,
    store: memoryStore(),
    queue: into,
    runbooks: RUNBOOK_IDS,
    now: () => new Date('2019-10-02T17:05:00Z'),
    newId: () => `job-${++ids}`,
  });
}

beforeEach(() => {
  queue = recordingQueue();
  ports.results = [];
  ports.warnings = [];
  ports.app = freshApp(queue);
});

const { handler } = await import('../../functions/alarm.ts');

type EventBridgeEvent = {
  account: string;
  region: string;
  resources: string[];
  detail: { state: { timestamp: string } };
};
const eventBridge = () => fixtureJson<EventBridgeEvent>('triggers/cloudwatch-eventbridge-single-metric.json');

/** The same state change as the alarm's Lambda action delivers it. */
function lambdaAction(event: EventBridgeEvent) {
  return {
    source: 'aws.cloudwatch',
    alarmArn: event.resources[0],
    accountId: event.account,
    time: event.detail.state.timestamp,
    region: event.region,
    alarmData: event.detail,
  };
}

const queued = () =>
  queue.sent.map((job) => ({ cluster: job.cluster, runbook: job.runbook, mode: job.mode }));

describe('the alarm function', () => {
  it("queues the job for an alarm's Lambda action event", async () => {
    await handler(lambdaAction(eventBridge()));
    expect(queued()).toEqual([{ cluster: 'prod-eu', runbook: 'host-identity', mode: 'dry-run' }]);
    expect(queue.sent[0]?.trigger.alarm?.arn).toBe(
      'arn:aws:cloudwatch:us-east-1:123456789012:alarm:ServerCpuTooHigh',
    );
  });

  it('queues the same job for the EventBridge event', async () => {
    await handler(eventBridge());
    expect(queued()).toEqual([{ cluster: 'prod-eu', runbook: 'host-identity', mode: 'dry-run' }]);
  });

  it('runs an alarm wired both ways once: the second form is a duplicate', async () => {
    await handler(eventBridge());
    await handler(lambdaAction(eventBridge()));
    expect(queued()).toHaveLength(1);
    const [first, second] = ports.results;
    expect(second?.queued).toEqual([]);
    expect(second?.duplicates.map((job) => job.dedupeKey)).toEqual(first?.queued.map((job) => job.dedupeKey));
  });

  it('throws a TriggerError naming the field for a bad event', async () => {
    const event = lambdaAction(eventBridge());
    event.alarmArn = 'not-an-arn';
    await expect(handler(event)).rejects.toThrow(TriggerError);
    await expect(handler(event)).rejects.toThrow(/^alarmArn: expected a CloudWatch alarm ARN/);
  });
});

/**
 * A Container Insights alarm as EventBridge delivers it: the fixture's state change, for an alarm
 * whose metric carries the EKS cluster's own name as its ClusterName dimension.
 */
function eventBridgeFor(clusterName: string) {
  const event = structuredClone(eventBridge()) as EventBridgeEvent & {
    detail: { alarmName: string; configuration: { metrics: { metricStat: { metric: unknown } }[] } };
  };
  event.resources = ['arn:aws:cloudwatch:us-east-1:123456789012:alarm:node-not-ready'];
  event.detail.alarmName = 'node-not-ready';
  event.detail.configuration.metrics = [
    {
      metricStat: {
        metric: {
          namespace: 'ContainerInsights',
          name: 'cluster_failed_node_count',
          dimensions: { ClusterName: clusterName, Namespace: 'ContainerInsights' },
        },
      },
    },
  ];
  return event;
}

/** The same kind of alarm as its SNS notification reaches the function (eu-west-1, the fixture's region). */
function snsFor(clusterName: string) {
  const event = structuredClone(
    fixtureJson<{ Records: { Sns: { Message: string } }[] }>(
      'triggers/cloudwatch-sns-lambda-single-metric.json',
    ),
  );
  const record = event.Records[0] as { Sns: { Message: string } };
  const message = JSON.parse(record.Sns.Message) as { Trigger: { Dimensions: unknown } };
  message.Trigger.Dimensions = [
    { name: 'ClusterName', value: clusterName },
    { name: 'Namespace', value: 'ContainerInsights' },
  ];
  record.Sns.Message = JSON.stringify(message);
  return event;
}

describe('the alarm function, finding the cluster', () => {
  it("takes an EventBridge alarm's ClusterName as the EKS cluster's name in the alarm's region", async () => {
    await handler(eventBridgeFor('payments-prod-7f3a'));
    expect(queued()).toEqual([{ cluster: 'payments', runbook: 'tunnel-datapath', mode: 'dry-run' }]);
    expect(ports.warnings).toEqual([]);
  });

  it("takes an SNS alarm's ClusterName as the EKS name in its own region, or as the config's name", async () => {
    await handler(snsFor('payments-prod-7f3a'));
    expect(queued()).toEqual([{ cluster: 'payments-eu', runbook: 'tunnel-datapath', mode: 'dry-run' }]);
    queue.sent.length = 0;
    ports.app = freshApp(queue);
    await handler(snsFor('prod-eu'));
    expect(queued()).toEqual([{ cluster: 'prod-eu', runbook: 'tunnel-datapath', mode: 'dry-run' }]);
  });

  it('logs an alarm that matches no cluster, with the names it tried', async () => {
    await handler(eventBridgeFor('payments-staging'));
    expect(queue.sent).toEqual([]);
    expect(ports.warnings).toEqual([
      {
        message: 'alarm matched no route or cluster',
        data: {
          alarm: 'node-not-ready',
          skipped: [
            'node-not-ready: cluster "payments-staging" is not in the config: tried its cluster names (prod-eu, payments, payments-eu) and its EKS cluster names in us-east-1 (payments-prod-7f3a)',
          ],
        },
      },
    ]);
  });
});

/** What a sender would notice of a dispatch: the jobs (with their dedupe keys), resolves, skips. */
const outcome = (result: Dispatched | undefined) => ({
  queued: result?.queued.map(({ cluster, runbook, mode, dedupeKey }) => ({
    cluster,
    runbook,
    mode,
    dedupeKey,
  })),
  resolved: result?.resolved.map(({ cluster, runbook, dedupeKey }) => ({ cluster, runbook, dedupeKey })),
  duplicates: result?.duplicates.length,
  skipped: result?.skipped,
});

describe('the alarm function, for Amazon Managed Prometheus on SNS (captured)', () => {
  const pairs = AMP_CAPTURES.filter(
    (c) => c.via === 'sns-json' && ['single', 'grouped'].includes(c.scenario),
  );
  const webhookOf = (scenario: string, status: string) =>
    AMP_CAPTURES.find((c) => c.via === 'webhook' && c.scenario === scenario && c.status === status)
      ?.file as string;

  it.each(pairs.map((c) => [c.file, c] as const))(
    '%s makes exactly the jobs the webhook makes of the same alerts, and is their duplicate',
    async (_, capture) => {
      await handler(ampCapture(capture.file));
      const viaSns = outcome(ports.results[0]);

      const webhookQueue = recordingQueue();
      const webhook = parseAlertmanager(ampCapture(webhookOf(capture.scenario, capture.status)), {
        receivedAt: new Date(),
      });
      expect(outcome(await freshApp(webhookQueue).dispatch(webhook))).toEqual(viaSns);
      const expected = capture.scenario === 'single' ? 'unmanaged-pods' : 'cgroup-root-hooks';
      const made = capture.status === 'firing' ? viaSns.queued : viaSns.resolved;
      expect(made?.map((job) => `${job.cluster} ${job.runbook}`)).toEqual([`prod-eu ${expected}`]);
      expect(webhookQueue.sent.map((job) => job.trigger.alerts)).toEqual(
        queue.sent.map((job) => job.trigger.alerts),
      );

      // The same alerts sent both ways (an AMP workspace and a webhook) run once.
      const again = await (ports.app as App).dispatch(webhook);
      expect(again.queued).toEqual([]);
      if (capture.status === 'firing') expect(again.duplicates).toHaveLength(1);
    },
  );

  it('refuses a group cut at 256 KB: nothing queued', async () => {
    const big = AMP_CAPTURES.find((c) => c.via === 'sns-json' && c.scenario === 'big')?.file as string;
    await expect(handler(ampCapture(big))).rejects.toThrow(
      /^Records\[0\]\.Sns\.MessageAttributes\.truncated: /,
    );
    expect(queue.sent).toEqual([]);
  });
});
