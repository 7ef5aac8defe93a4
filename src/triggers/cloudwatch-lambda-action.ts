import * as z from 'zod';
import { AlarmArn, AlarmDataSchema, alarmDataChange, alarmTrigger } from './cloudwatch-alarm.ts';
import type { EdgeFacts } from './edge.ts';
import type { Trigger } from './types.ts';
import { parseWith } from './validate.ts';

/**
 * The event an alarm whose action is a Lambda function sends it directly (since December 2023):
 * the same state-change document as EventBridge's `detail`, in `alarmData`, with the alarm ARN in
 * `alarmArn`. Region and account are read from the ARN, as for the other forms.
 */
export const AlarmLambdaActionSchema = z.lazy(() =>
  z.object({
    source: z.literal('aws.cloudwatch'),
    alarmArn: AlarmArn,
    alarmData: AlarmDataSchema,
  }),
);

/** Same alarm change, same Trigger (and deliveryKey) as its EventBridge event would make. */
export function parseAlarmLambdaAction(payload: unknown, edge: EdgeFacts): Trigger {
  const event = parseWith(AlarmLambdaActionSchema, payload);
  return alarmTrigger(alarmDataChange(event.alarmData, event.alarmArn), edge);
}
