import * as z from 'zod';
import { deliveryKey } from './delivery-key.ts';
import type { EdgeFacts } from './edge.ts';
import type { CloudWatchAlarm, Trigger } from './types.ts';
import { NonEmpty, Timestamp } from './validate.ts';

export const AlarmState = z.enum(['ALARM', 'OK', 'INSUFFICIENT_DATA']);

/**
 * An alarm ARN, with the region and account read from it: the SNS form names the region only for
 * display ("EU (Ireland)"), so the ARN is the one place both forms agree on.
 */
export const AlarmArn = z
  .string()
  .regex(
    /^arn:aws[a-z-]*:cloudwatch:[a-z]{2}(-[a-z]+)+-\d+:\d{12}:alarm:.+$/,
    'expected a CloudWatch alarm ARN: arn:aws:cloudwatch:<region>:<account>:alarm:<name>',
  )
  .transform((arn) => {
    // The pattern above guarantees these parts.
    const [, , , region, accountId] = arn.split(':') as [string, string, string, string, string];
    return { arn, region, accountId };
  });

/** What every delivery form (EventBridge, Lambda action, SNS) says about one state change. */
export interface AlarmChange {
  name: string;
  arn: z.output<typeof AlarmArn>;
  state: CloudWatchAlarm['state'];
  /** Normalized ISO time of the state change. */
  changedAt: string;
  dimensions: Record<string, string>;
  description?: string | null;
  reason?: string;
}

const Metric = z.lazy(() =>
  z.object({
    // Metric-math expressions carry no metricStat; composite alarms carry no metrics at all.
    metricStat: z
      .object({ metric: z.object({ dimensions: z.record(z.string(), z.string()).optional() }) })
      .optional(),
  }),
);

/**
 * The state change as CloudWatch writes it in JSON for EventBridge (the event's `detail`) and for
 * an alarm that invokes a Lambda function directly (the event's `alarmData`): one document, two
 * envelopes.
 */
export const AlarmDataSchema = z.lazy(() =>
  z.object({
    alarmName: NonEmpty,
    state: z.object({ value: AlarmState, timestamp: Timestamp, reason: z.string().optional() }),
    configuration: z
      .object({ description: z.string().optional(), metrics: z.array(Metric).optional() })
      .optional(),
  }),
);

/** The change an alarm-data document describes, for the alarm its envelope names. */
export function alarmDataChange(
  data: z.output<typeof AlarmDataSchema>,
  arn: z.output<typeof AlarmArn>,
): AlarmChange {
  const { alarmName, state, configuration } = data;
  const metrics = configuration?.metrics ?? [];
  return {
    name: alarmName,
    arn,
    state: state.value,
    changedAt: state.timestamp,
    dimensions: Object.fromEntries(
      metrics.flatMap((metric) => Object.entries(metric.metricStat?.metric.dimensions ?? {})),
    ),
    description: configuration?.description,
    reason: state.reason,
  };
}

// INSUFFICIENT_DATA is parsed but maps to no status: routing runs nothing for it.
const STATUS: Record<CloudWatchAlarm['state'], Trigger['status']> = {
  ALARM: 'firing',
  OK: 'resolved',
  INSUFFICIENT_DATA: undefined,
};

/**
 * The Trigger for one alarm state change. The deliveryKey is (ARN, new state, change time), the
 * same whichever way the change arrived, so an alarm wired to both EventBridge and SNS runs once.
 */
export function alarmTrigger(change: AlarmChange, edge: EdgeFacts): Trigger {
  const { arn, region, accountId } = change.arn;
  const status = STATUS[change.state];
  const annotations = Object.fromEntries(
    Object.entries({ description: change.description, reason: change.reason }).filter(
      (entry): entry is [string, string] => typeof entry[1] === 'string',
    ),
  );
  return {
    source: 'cloudwatch',
    receivedAt: edge.receivedAt.toISOString(),
    deliveryKey: deliveryKey('cloudwatch', [arn, change.state, change.changedAt]),
    alerts: status
      ? [{ name: change.name, status, fingerprint: arn, labels: change.dimensions, annotations }]
      : [],
    status,
    actor: { kind: 'system', id: 'cloudwatch' },
    alarm: {
      name: change.name,
      arn,
      state: change.state,
      region,
      accountId,
      dimensions: change.dimensions,
    },
  };
}
