import { z } from 'zod';
import { deliveryKey } from './delivery-key.ts';
import type { EdgeFacts } from './edge.ts';
import type { CloudWatchAlarm, Trigger } from './types.ts';

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

/** What both delivery forms (EventBridge event, SNS notification) say about one state change. */
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
