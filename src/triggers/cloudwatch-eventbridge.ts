import * as z from 'zod';
import { AlarmArn, AlarmDataSchema, alarmDataChange, alarmTrigger } from './cloudwatch-alarm.ts';
import type { EdgeFacts } from './edge.ts';
import type { Trigger } from './types.ts';
import { parseWith } from './validate.ts';

/** EventBridge "CloudWatch Alarm State Change" (source aws.cloudwatch); resources[0] is the alarm ARN. */
export const AlarmStateChangeSchema = z.lazy(() =>
  z.object({
    'detail-type': z.literal('CloudWatch Alarm State Change'),
    source: z.literal('aws.cloudwatch'),
    resources: z.tuple([AlarmArn], z.string()),
    detail: AlarmDataSchema,
  }),
);

export function parseAlarmStateChange(payload: unknown, edge: EdgeFacts): Trigger {
  const event = parseWith(AlarmStateChangeSchema, payload);
  return alarmTrigger(alarmDataChange(event.detail, event.resources[0]), edge);
}
