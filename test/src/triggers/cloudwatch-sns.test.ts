import { describe, expect, it } from 'vitest';
import { parseAlarmStateChange } from '../../../src/triggers/cloudwatch-eventbridge.ts';
import { parseLambdaSnsEvent, parseSnsNotification } from '../../../src/triggers/sns.ts';
import { EDGE, fixtureJson, triggerErrorOf } from './fixtures.ts';

interface SnsRecord {
  Sns: { Type: string; Message: string; [field: string]: unknown };
}
interface LambdaSnsEvent {
  Records: SnsRecord[];
}

const singleMetric = () => fixtureJson<LambdaSnsEvent>('cloudwatch-sns-lambda-single-metric.json');

/** The fixture's notification with its alarm message changed. */
function withMessage(change: (message: Record<string, unknown>) => void): LambdaSnsEvent {
  const event = singleMetric();
  const sns = (event.Records[0] as SnsRecord).Sns;
  const message = JSON.parse(sns.Message) as Record<string, unknown>;
  change(message);
  sns.Message = JSON.stringify(message);
  return event;
}

const ARN = 'arn:aws:cloudwatch:eu-west-1:123456789012:alarm:EXAMPLE';

describe('parseLambdaSnsEvent', () => {
  it('turns the Lambda SNS alarm example into a firing Trigger, region from the ARN', () => {
    expect(parseLambdaSnsEvent(singleMetric(), EDGE)).toEqual([
      {
        source: 'cloudwatch',
        receivedAt: '2024-05-01T12:00:00.000Z',
        deliveryKey: expect.stringMatching(/^cloudwatch:[0-9a-f]{32}$/),
        alerts: [
          {
            name: 'EXAMPLE',
            status: 'firing',
            fingerprint: ARN,
            labels: { InstanceId: 'TestInstance' },
            annotations: {
              description: 'EXAMPLE',
              reason:
                'Threshold Crossed: 1 out of the last 1 datapoints [1234.0 (06/03/15 17:43:27)] was greater than the threshold (0.0) (minimum 1 datapoint for OK -> ALARM transition).',
            },
          },
        ],
        status: 'firing',
        actor: { kind: 'system', id: 'cloudwatch' },
        alarm: {
          name: 'EXAMPLE',
          arn: ARN,
          state: 'ALARM',
          // The message says "EU (Ireland)"; the ARN says eu-west-1.
          region: 'eu-west-1',
          accountId: '123456789012',
          dimensions: { InstanceId: 'TestInstance' },
        },
      },
    ]);
  });

  it("reads a metric-math alarm's dimensions from Trigger.Metrics", () => {
    const [trigger] = parseLambdaSnsEvent(fixtureJson('cloudwatch-sns-lambda-multiple-metrics.json'), EDGE);
    expect(trigger?.alarm?.dimensions).toEqual({ InstanceId: 'TestInstance' });
    expect(trigger?.alarm?.region).toBe('eu-west-1');
  });

  it('makes one Trigger per record', () => {
    const event = singleMetric();
    event.Records.push(...withMessage((m) => (m.AlarmArn = ARN.replace('eu-west-1', 'us-east-2'))).Records);
    expect(parseLambdaSnsEvent(event, EDGE).map((trigger) => trigger.alarm?.region)).toEqual([
      'eu-west-1',
      'us-east-2',
    ]);
  });

  it('maps OK to resolved and INSUFFICIENT_DATA to no status', () => {
    const [ok] = parseLambdaSnsEvent(
      withMessage((m) => (m.NewStateValue = 'OK')),
      EDGE,
    );
    expect(ok?.status).toBe('resolved');
    const [unknown] = parseLambdaSnsEvent(
      withMessage((m) => (m.NewStateValue = 'INSUFFICIENT_DATA')),
      EDGE,
    );
    expect(unknown?.status).toBeUndefined();
    expect(unknown?.alerts).toEqual([]);
  });

  it('keys the change as the EventBridge form of the same change is keyed', () => {
    const bridged = fixtureJson<{
      resources: string[];
      detail: { alarmName: string; state: { timestamp: string } };
    }>('cloudwatch-eventbridge-single-metric.json');
    const [sns] = parseLambdaSnsEvent(
      withMessage((m) => {
        m.AlarmArn = bridged.resources[0];
        m.StateChangeTime = bridged.detail.state.timestamp;
      }),
      EDGE,
    );
    expect(sns?.deliveryKey).toBe(parseAlarmStateChange(bridged, EDGE).deliveryKey);
  });

  it.each([
    ['no records', { Records: [] }, 'Records', 'Records: expected a record'],
    [
      'a Message that is no JSON',
      { Records: [{ Sns: { Type: 'Notification', Message: 'ALARM: EXAMPLE' } }] },
      'Records[0].Sns.Message',
      'Records[0].Sns.Message: expected a JSON document in this string',
    ],
    [
      'an alarm ARN without a region',
      withMessage((m) => (m.AlarmArn = 'arn:aws:cloudwatch:REGION:ACCOUNT_NUMBER:alarm:EXAMPLE')),
      'Records[0].Sns.Message.AlarmArn',
      'Records[0].Sns.Message.AlarmArn: expected a CloudWatch alarm ARN: arn:aws:cloudwatch:<region>:<account>:alarm:<name>',
    ],
    [
      'a dimension with a missing value',
      withMessage((m) => (m.Trigger = { Dimensions: [{ name: 'InstanceId' }] })),
      'Records[0].Sns.Message.Trigger.Dimensions[0].value',
      'Records[0].Sns.Message.Trigger.Dimensions[0].value: missing (expected string)',
    ],
    [
      'a missing state',
      withMessage((m) => delete m.NewStateValue),
      'Records[0].Sns.Message.NewStateValue',
      'Records[0].Sns.Message.NewStateValue: missing (expected "ALARM" or "OK" or "INSUFFICIENT_DATA")',
    ],
  ])('rejects %s, naming the field', (_, event, field, message) => {
    const error = triggerErrorOf(() => parseLambdaSnsEvent(event, EDGE));
    expect(error.field).toBe(field);
    expect(error.message).toBe(message);
  });
});

describe('parseSnsNotification', () => {
  it('parses the notification an HTTP subscription receives like the Lambda record', () => {
    const notification = (singleMetric().Records[0] as SnsRecord).Sns;
    const [fromLambda] = parseLambdaSnsEvent(singleMetric(), EDGE);
    expect(parseSnsNotification(notification, EDGE)).toEqual(fromLambda);
  });

  it('rejects a subscription confirmation, naming the field', () => {
    const error = triggerErrorOf(() =>
      parseSnsNotification(
        { Type: 'SubscriptionConfirmation', Message: 'You have chosen to subscribe' },
        EDGE,
      ),
    );
    expect(error.message).toBe('Type: expected "Notification", got "SubscriptionConfirmation"');
  });

  it('names the Message field when the alarm inside it is bad', () => {
    const error = triggerErrorOf(() =>
      parseSnsNotification({ Type: 'Notification', Message: JSON.stringify({ AlarmName: 7 }) }, EDGE),
    );
    expect(error.message).toBe('Message.AlarmName: expected string, got number');
  });
});
