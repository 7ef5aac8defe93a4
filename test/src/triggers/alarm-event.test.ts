import { describe, expect, it } from 'vitest';
import { parseAlarmEvent } from '../../../src/triggers/alarm-event.ts';
import { EDGE, fixtureJson, triggerErrorOf } from './fixtures.ts';

describe('parseAlarmEvent', () => {
  it('reads the EventBridge event', () => {
    const triggers = parseAlarmEvent(fixtureJson('cloudwatch-eventbridge-single-metric.json'), EDGE);
    expect(triggers.map((trigger) => trigger.alarm?.name)).toEqual(['ServerCpuTooHigh']);
  });

  it("reads the event of an alarm's Lambda action", () => {
    const triggers = parseAlarmEvent(fixtureJson('cloudwatch-lambda-action-single-metric.json'), EDGE);
    expect(triggers.map((trigger) => trigger.alarm?.name)).toEqual(['lambda-demo-metric-alarm']);
  });

  it('reads the Lambda SNS event', () => {
    const triggers = parseAlarmEvent(fixtureJson('cloudwatch-sns-lambda-single-metric.json'), EDGE);
    expect(triggers.map((trigger) => trigger.alarm?.region)).toEqual(['eu-west-1']);
  });

  it('reads a bare SNS notification', () => {
    const event = fixtureJson<{ Records: { Sns: unknown }[] }>('cloudwatch-sns-lambda-single-metric.json');
    const triggers = parseAlarmEvent(event.Records[0]?.Sns, EDGE);
    expect(triggers.map((trigger) => trigger.alarm?.arn)).toEqual([
      'arn:aws:cloudwatch:eu-west-1:123456789012:alarm:EXAMPLE',
    ]);
  });

  it.each([
    ['null', null],
    ['a string', 'ALARM'],
    ['an object of another kind', { alarm: 'ServerCpuTooHigh' }],
  ])('rejects %s, saying which forms it takes', (_, payload) => {
    const error = triggerErrorOf(() => parseAlarmEvent(payload, EDGE));
    expect(error.field).toBe('payload');
    expect(error.message).toBe(
      'payload: expected an EventBridge "CloudWatch Alarm State Change" event, a CloudWatch alarm Lambda action event, a Lambda SNS event or an SNS notification',
    );
  });
});
