import { TriggerError } from '../validation/trigger-error.ts';
import { parseAlarmStateChange } from './cloudwatch-eventbridge.ts';
import { parseAlarmLambdaAction } from './cloudwatch-lambda-action.ts';
import type { EdgeFacts } from './edge.ts';
import { parseLambdaSnsEvent, parseSnsNotification } from './sns.ts';
import type { Trigger } from './types.ts';

/**
 * What the alarm function receives: a CloudWatch alarm state change as the EventBridge event, the
 * event of an alarm's Lambda action, the Lambda SNS event or a bare SNS notification; on SNS also
 * an Amazon Managed Prometheus alert group. Always a list, since one Lambda SNS event may carry
 * several records.
 */
export function parseAlarmEvent(payload: unknown, edge: EdgeFacts): Trigger[] {
  if (typeof payload === 'object' && payload !== null) {
    if ('detail-type' in payload) return [parseAlarmStateChange(payload, edge)];
    if ('alarmData' in payload) return [parseAlarmLambdaAction(payload, edge)];
    if ('Records' in payload) return parseLambdaSnsEvent(payload, edge);
    if ('Type' in payload) return [parseSnsNotification(payload, edge)];
  }
  throw new TriggerError(
    'payload',
    'expected an EventBridge "CloudWatch Alarm State Change" event, a CloudWatch alarm Lambda action event, a Lambda SNS event or an SNS notification',
  );
}
