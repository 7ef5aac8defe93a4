import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../../src/config/load.ts';
import { routeTrigger } from '../../../src/routing/route.ts';
import { parseAlarmEvent } from '../../../src/triggers/alarm-event.ts';
import { parseAlarmStateChange } from '../../../src/triggers/cloudwatch-eventbridge.ts';
import { parseAlarmLambdaAction } from '../../../src/triggers/cloudwatch-lambda-action.ts';
import type { Trigger } from '../../../src/triggers/types.ts';
import { counterIds, RUNBOOK_IDS } from '../routing/fixtures.ts';
import { EDGE, fixtureJson, triggerErrorOf } from './fixtures.ts';

interface AlarmData {
  alarmName?: string;
  state: { value: string; timestamp: string; reason?: string };
  [field: string]: unknown;
}
interface LambdaActionEvent {
  source: string;
  alarmArn: string;
  alarmData: AlarmData;
  [field: string]: unknown;
}
interface EventBridgeEvent {
  account: string;
  time: string;
  region: string;
  resources: string[];
  detail: AlarmData;
}

const singleMetric = () => fixtureJson<LambdaActionEvent>('cloudwatch-lambda-action-single-metric.json');
const eventBridge = () => fixtureJson<EventBridgeEvent>('cloudwatch-eventbridge-single-metric.json');

/** The same state change as CloudWatch sends it to a Lambda alarm action: one document, other envelope. */
function asLambdaAction(event: EventBridgeEvent): LambdaActionEvent {
  return {
    source: 'aws.cloudwatch',
    alarmArn: event.resources[0] as string,
    accountId: event.account,
    time: event.detail.state.timestamp,
    region: event.region,
    alarmData: event.detail,
  };
}

const config = parseConfig(`
clusters:
  - name: prod-eu
    sim: { scenarios: [healthy] }
routes:
  - match: { source: cloudwatch, alarmName: ServerCpuTooHigh }
    cluster: prod-eu
    runbook: host-identity
  - match: { source: cloudwatch, alarmName: lambda-demo-metric-alarm, dimensions: { InstanceId: i-12345678 } }
    cluster: prod-eu
    runbook: cgroup-root-hooks
    mode: auto
`);

function jobsOf(trigger: Trigger) {
  return routeTrigger(trigger, { config, runbooks: RUNBOOK_IDS, newId: counterIds() }).jobs.map((job) => ({
    cluster: job.cluster,
    runbook: job.runbook,
    mode: job.mode,
  }));
}

describe('parseAlarmLambdaAction', () => {
  it("turns AWS's metric-alarm example into a firing Trigger with the alarm filled", () => {
    expect(parseAlarmLambdaAction(singleMetric(), EDGE)).toEqual({
      source: 'cloudwatch',
      receivedAt: '2024-05-01T12:00:00.000Z',
      deliveryKey: expect.stringMatching(/^cloudwatch:[0-9a-f]{32}$/),
      alerts: [
        {
          name: 'lambda-demo-metric-alarm',
          status: 'firing',
          fingerprint: 'arn:aws:cloudwatch:us-east-1:444455556666:alarm:lambda-demo-metric-alarm',
          labels: { InstanceId: 'i-12345678' },
          annotations: { description: 'Metric Alarm to test Lambda actions', reason: 'test' },
        },
      ],
      status: 'firing',
      actor: { kind: 'system', id: 'cloudwatch' },
      alarm: {
        name: 'lambda-demo-metric-alarm',
        arn: 'arn:aws:cloudwatch:us-east-1:444455556666:alarm:lambda-demo-metric-alarm',
        state: 'ALARM',
        region: 'us-east-1',
        accountId: '444455556666',
        dimensions: { InstanceId: 'i-12345678' },
      },
    });
  });

  it('makes the very Trigger the EventBridge event of the same change makes, deliveryKey included', () => {
    const viaEventBridge = parseAlarmStateChange(eventBridge(), EDGE);
    expect(parseAlarmLambdaAction(asLambdaAction(eventBridge()), EDGE)).toEqual(viaEventBridge);
  });

  it('routes to the same cluster and runbook as the EventBridge form', () => {
    const viaEventBridge = jobsOf(parseAlarmStateChange(eventBridge(), EDGE));
    expect(viaEventBridge).toEqual([{ cluster: 'prod-eu', runbook: 'host-identity', mode: 'dry-run' }]);
    expect(jobsOf(parseAlarmLambdaAction(asLambdaAction(eventBridge()), EDGE))).toEqual(viaEventBridge);
    expect(jobsOf(parseAlarmLambdaAction(singleMetric(), EDGE))).toEqual([
      { cluster: 'prod-eu', runbook: 'cgroup-root-hooks', mode: 'auto' },
    ]);
  });

  it('reads region and account from the ARN, not from the envelope', () => {
    const trigger = parseAlarmLambdaAction(fixtureJson('cloudwatch-lambda-action-metric-math.json'), EDGE);
    expect(trigger.alarm).toEqual({
      name: 'Test alert',
      arn: 'arn:aws:cloudwatch:eu-west-1:912397435824:alarm:test_alarm',
      state: 'ALARM',
      region: 'eu-west-1',
      accountId: '912397435824',
      dimensions: {},
    });
    expect(trigger.alerts[0]?.annotations.description).toBe('This is description **here**');
  });

  it('takes a composite alarm, which has no metrics', () => {
    const trigger = parseAlarmLambdaAction(fixtureJson('cloudwatch-lambda-action-composite.json'), EDGE);
    expect(trigger.alarm).toMatchObject({ name: 'CompositeDemo.Main', state: 'ALARM', dimensions: {} });
    expect(trigger.status).toBe('firing');
  });

  it('reports OK as resolved and INSUFFICIENT_DATA as nothing to run', () => {
    const ok = singleMetric();
    ok.alarmData.state.value = 'OK';
    expect(parseAlarmLambdaAction(ok, EDGE)).toMatchObject({
      status: 'resolved',
      alerts: [{ status: 'resolved' }],
    });
    const unknown = singleMetric();
    unknown.alarmData.state.value = 'INSUFFICIENT_DATA';
    expect(parseAlarmLambdaAction(unknown, EDGE)).toMatchObject({ status: undefined, alerts: [] });
  });

  it('keys a state change by alarm, state and time, whenever it arrives', () => {
    const key = parseAlarmLambdaAction(singleMetric(), EDGE).deliveryKey;
    expect(parseAlarmLambdaAction(singleMetric(), { receivedAt: new Date() }).deliveryKey).toBe(key);
    const later = singleMetric();
    later.alarmData.state.timestamp = '2023-08-04T12:41:15.490+0000';
    expect(parseAlarmLambdaAction(later, EDGE).deliveryKey).not.toBe(key);
  });

  it('is what parseAlarmEvent makes of the event', () => {
    expect(parseAlarmEvent(singleMetric(), EDGE)).toEqual([parseAlarmLambdaAction(singleMetric(), EDGE)]);
  });

  it.each([
    [
      'another source',
      (e: LambdaActionEvent) => {
        e.source = 'aws.events';
      },
      'source',
      'source: expected "aws.cloudwatch", got "aws.events"',
    ],
    [
      'an alarmArn that is no alarm ARN',
      (e: LambdaActionEvent) => {
        e.alarmArn = 'arn:aws:cloudwatch:us-east-1: 444455556666:alarm:lambda-demo-metric-alarm';
      },
      'alarmArn',
      'alarmArn: expected a CloudWatch alarm ARN: arn:aws:cloudwatch:<region>:<account>:alarm:<name>',
    ],
    [
      'a missing alarm name',
      (e: LambdaActionEvent) => {
        delete e.alarmData.alarmName;
      },
      'alarmData.alarmName',
      'alarmData.alarmName: missing (expected string)',
    ],
    [
      'an unknown state',
      (e: LambdaActionEvent) => {
        e.alarmData.state.value = 'BROKEN';
      },
      'alarmData.state.value',
      'alarmData.state.value: expected "ALARM" or "OK" or "INSUFFICIENT_DATA", got "BROKEN"',
    ],
    [
      'a timestamp that is none (as the docs typeset it)',
      (e: LambdaActionEvent) => {
        e.alarmData.state.timestamp = '2023-08-04T12: 36: 15.490+0000';
      },
      'alarmData.state.timestamp',
      'alarmData.state.timestamp: expected an ISO-8601 timestamp',
    ],
    [
      'dimensions of the wrong type',
      (e: LambdaActionEvent) => {
        e.alarmData.configuration = { metrics: [{ metricStat: { metric: { dimensions: ['InstanceId'] } } }] };
      },
      'alarmData.configuration.metrics[0].metricStat.metric.dimensions',
      'alarmData.configuration.metrics[0].metricStat.metric.dimensions: expected object, got array',
    ],
  ])('rejects %s, naming the field', (_, change, field, message) => {
    const event = singleMetric();
    change(event);
    for (const parse of [parseAlarmLambdaAction, parseAlarmEvent]) {
      const error = triggerErrorOf(() => parse(event, EDGE));
      expect(error.field).toBe(field);
      expect(error.message).toBe(message);
    }
  });
});
