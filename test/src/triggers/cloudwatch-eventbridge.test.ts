import { describe, expect, it } from 'vitest';
import { parseAlarmStateChange } from '../../../src/triggers/cloudwatch-eventbridge.ts';
import { EDGE, fixtureJson, triggerErrorOf } from './fixtures.ts';

interface AlarmEvent {
  resources: string[];
  detail: { state: { value: string; timestamp: string }; [field: string]: unknown };
  [field: string]: unknown;
}

const singleMetric = () => fixtureJson<AlarmEvent>('cloudwatch-eventbridge-single-metric.json');

describe('parseAlarmStateChange', () => {
  it("turns AWS's single-metric example into a firing Trigger with the alarm filled", () => {
    expect(parseAlarmStateChange(singleMetric(), EDGE)).toEqual({
      source: 'cloudwatch',
      receivedAt: '2024-05-01T12:00:00.000Z',
      deliveryKey: expect.stringMatching(/^cloudwatch:[0-9a-f]{32}$/),
      alerts: [
        {
          name: 'ServerCpuTooHigh',
          status: 'firing',
          fingerprint: 'arn:aws:cloudwatch:us-east-1:123456789012:alarm:ServerCpuTooHigh',
          labels: { InstanceId: 'i-12345678901234567' },
          annotations: {
            description: 'Goes into alarm when server CPU utilization is too high!',
            reason:
              'Threshold Crossed: 1 out of the last 1 datapoints [99.50160229693434 (02/10/19 16:59:00)] was greater than the threshold (50.0) (minimum 1 datapoint for OK -> ALARM transition).',
          },
        },
      ],
      status: 'firing',
      actor: { kind: 'system', id: 'cloudwatch' },
      alarm: {
        name: 'ServerCpuTooHigh',
        arn: 'arn:aws:cloudwatch:us-east-1:123456789012:alarm:ServerCpuTooHigh',
        state: 'ALARM',
        region: 'us-east-1',
        accountId: '123456789012',
        dimensions: { InstanceId: 'i-12345678901234567' },
      },
    });
  });

  it("collects the dimensions of a metric-math alarm's metrics", () => {
    const trigger = parseAlarmStateChange(fixtureJson('cloudwatch-eventbridge-metric-math.json'), EDGE);
    expect(trigger.alarm?.name).toBe('TotalNetworkTrafficTooHigh');
    expect(trigger.alarm?.dimensions).toEqual({ InstanceId: 'i-12345678901234567' });
    expect(trigger.status).toBe('firing');
  });

  it('reports OK as resolved', () => {
    const event = singleMetric();
    event.detail.state.value = 'OK';
    const trigger = parseAlarmStateChange(event, EDGE);
    expect(trigger.status).toBe('resolved');
    expect(trigger.alerts.map((alert) => alert.status)).toEqual(['resolved']);
  });

  it('parses INSUFFICIENT_DATA with no status and no alerts, so nothing runs', () => {
    const event = singleMetric();
    event.detail.state.value = 'INSUFFICIENT_DATA';
    const trigger = parseAlarmStateChange(event, EDGE);
    expect(trigger.status).toBeUndefined();
    expect(trigger.alerts).toEqual([]);
    expect(trigger.alarm?.state).toBe('INSUFFICIENT_DATA');
  });

  it('keys a state change by alarm, state and time', () => {
    const key = parseAlarmStateChange(singleMetric(), EDGE).deliveryKey;
    expect(parseAlarmStateChange(singleMetric(), { receivedAt: new Date() }).deliveryKey).toBe(key);
    const later = singleMetric();
    later.detail.state.timestamp = '2019-10-02T17:09:40.989+0000';
    expect(parseAlarmStateChange(later, EDGE).deliveryKey).not.toBe(key);
    const ok = singleMetric();
    ok.detail.state.value = 'OK';
    expect(parseAlarmStateChange(ok, EDGE).deliveryKey).not.toBe(key);
  });

  it.each([
    [
      'another detail-type',
      (e: AlarmEvent) => {
        e['detail-type'] = 'CloudWatch Alarm Configuration Change';
      },
      'detail-type',
      'detail-type: expected "CloudWatch Alarm State Change", got "CloudWatch Alarm Configuration Change"',
    ],
    [
      'a resource that is no alarm ARN',
      (e: AlarmEvent) => {
        e.resources = ['arn:aws:ec2:us-east-1:123456789012:instance/i-1'];
      },
      'resources[0]',
      'resources[0]: expected a CloudWatch alarm ARN: arn:aws:cloudwatch:<region>:<account>:alarm:<name>',
    ],
    [
      'an unknown state',
      (e: AlarmEvent) => {
        e.detail.state.value = 'BROKEN';
      },
      'detail.state.value',
      'detail.state.value: expected "ALARM" or "OK" or "INSUFFICIENT_DATA", got "BROKEN"',
    ],
    [
      'a timestamp that is none',
      (e: AlarmEvent) => {
        e.detail.state.timestamp = 'yesterday';
      },
      'detail.state.timestamp',
      'detail.state.timestamp: expected an ISO-8601 timestamp',
    ],
    [
      'dimensions of the wrong type',
      (e: AlarmEvent) => {
        e.detail.configuration = { metrics: [{ metricStat: { metric: { dimensions: ['InstanceId'] } } }] };
      },
      'detail.configuration.metrics[0].metricStat.metric.dimensions',
      'detail.configuration.metrics[0].metricStat.metric.dimensions: expected object, got array',
    ],
  ])('rejects %s, naming the field', (_, change, field, message) => {
    const event = singleMetric();
    change(event);
    const error = triggerErrorOf(() => parseAlarmStateChange(event, EDGE));
    expect(error.field).toBe(field);
    expect(error.message).toBe(message);
  });
});
