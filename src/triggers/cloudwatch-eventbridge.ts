import { z } from 'zod';
import { AlarmArn, AlarmState, alarmTrigger } from './cloudwatch-alarm.ts';
import type { EdgeFacts } from './edge.ts';
import type { Trigger } from './types.ts';
import { NonEmpty, parseWith, Timestamp } from './validate.ts';

const Metric = z.object({
  // Metric-math expressions carry no metricStat; composite alarms carry no metrics at all.
  metricStat: z
    .object({ metric: z.object({ dimensions: z.record(z.string(), z.string()).optional() }) })
    .optional(),
});

/** EventBridge "CloudWatch Alarm State Change" (source aws.cloudwatch); resources[0] is the alarm ARN. */
export const AlarmStateChangeSchema = z.object({
  'detail-type': z.literal('CloudWatch Alarm State Change'),
  source: z.literal('aws.cloudwatch'),
  resources: z.tuple([AlarmArn], z.string()),
  detail: z.object({
    alarmName: NonEmpty,
    state: z.object({ value: AlarmState, timestamp: Timestamp, reason: z.string().optional() }),
    configuration: z
      .object({ description: z.string().optional(), metrics: z.array(Metric).optional() })
      .optional(),
  }),
});

export function parseAlarmStateChange(payload: unknown, edge: EdgeFacts): Trigger {
  const event = parseWith(AlarmStateChangeSchema, payload);
  const { alarmName, state, configuration } = event.detail;
  const metrics = configuration?.metrics ?? [];
  return alarmTrigger(
    {
      name: alarmName,
      arn: event.resources[0],
      state: state.value,
      changedAt: state.timestamp,
      dimensions: Object.fromEntries(
        metrics.flatMap((metric) => Object.entries(metric.metricStat?.metric.dimensions ?? {})),
      ),
      description: configuration?.description,
      reason: state.reason,
    },
    edge,
  );
}
