import * as z from 'zod';
import { AlarmArn, AlarmState, alarmTrigger } from './cloudwatch-alarm.ts';
import type { EdgeFacts } from './edge.ts';
import type { Trigger } from './types.ts';
import { NonEmpty, parseJsonField, parseWith, Timestamp } from './validate.ts';

// SNS writes dimensions as a list with lowercase keys.
const Dimensions = z.lazy(() => z.array(z.object({ name: z.string(), value: z.string() })));

/** The classic alarm notification CloudWatch publishes to SNS, found JSON-encoded in `Message`. */
export const AlarmNotificationSchema = z.lazy(() =>
  z.object({
    AlarmName: NonEmpty,
    AlarmArn,
    NewStateValue: AlarmState,
    NewStateReason: z.string().optional(),
    AlarmDescription: z.string().nullish(),
    StateChangeTime: Timestamp,
    // Region is a display name ("EU (Ireland)"), not a region code: the ARN says which region.
    Trigger: z
      .object({
        Dimensions: Dimensions.optional(),
        // Metric-math alarms list their metrics here instead.
        Metrics: z
          .array(
            z.object({
              MetricStat: z.object({ Metric: z.object({ Dimensions: Dimensions.optional() }) }).optional(),
            }),
          )
          .optional(),
      })
      .optional(),
  }),
);

/** The CloudWatch alarm notification in an SNS message; `field` names the message. */
export function parseAlarmMessage(message: string, field: string, edge: EdgeFacts): Trigger {
  const alarm = parseWith(AlarmNotificationSchema, parseJsonField(message, field), field);
  const lists = [
    alarm.Trigger?.Dimensions ?? [],
    ...(alarm.Trigger?.Metrics ?? []).map((metric) => metric.MetricStat?.Metric.Dimensions ?? []),
  ];
  return alarmTrigger(
    {
      name: alarm.AlarmName,
      arn: alarm.AlarmArn,
      state: alarm.NewStateValue,
      changedAt: alarm.StateChangeTime,
      dimensions: Object.fromEntries(lists.flat().map(({ name, value }) => [name, value])),
      description: alarm.AlarmDescription,
      reason: alarm.NewStateReason,
    },
    edge,
  );
}
