import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { App } from '../../src/app/app.ts';
import { parseConfig } from '../../src/config/load.ts';
import type { Dispatched } from '../../src/routing/dispatch.ts';
import { memoryStore } from '../../src/store/index.ts';
import { TriggerError } from '../../src/triggers/errors.ts';
import type { Trigger } from '../../src/triggers/types.ts';
import { appOf, fixtureJson, type RecordingQueue, RUNBOOK_IDS, recordingQueue } from './harness.ts';

/**
 * The alarm function as deployed (functions/alarm.ts), its composition root swapped for the test
 * ports: each form CloudWatch delivers an alarm in goes all the way to a queued job.
 */
const ports = vi.hoisted(() => ({ app: undefined as App | undefined, results: [] as Dispatched[] }));

// The handler keeps what lambdaRuntime returned at cold start; it reaches each test's own app.
vi.mock('../../functions/runtime.ts', () => ({
  lambdaRuntime: async () => ({
    app: {
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
routes:
  - match: { source: cloudwatch, alarmName: ServerCpuTooHigh }
    cluster: prod-eu
    runbook: host-identity
`,
  'alarm-test.yaml',
  { runbooks: RUNBOOK_IDS },
);

let queue: RecordingQueue;

beforeEach(() => {
  queue = recordingQueue();
  ports.results = [];
  let ids = 0;
  ports.app = appOf({
    config,
    store: memoryStore(),
    queue,
    runbooks: RUNBOOK_IDS,
    now: () => new Date('2019-10-02T17:05:00Z'),
    newId: () => `job-${++ids}`,
  });
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
