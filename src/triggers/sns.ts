import * as z from 'zod';
import { isAlertmanagerMessage, parseAmpMessage } from './amp-sns.ts';
import { parseAlarmMessage } from './cloudwatch-sns.ts';
import type { EdgeFacts } from './edge.ts';
import type { Trigger } from './types.ts';
import { parseWith } from './validate.ts';

/** SNS's notification: the same fields in a Lambda event record's `Sns` and in an HTTP(S) POST. */
const SnsNotification = z.lazy(() =>
  z.object({
    Type: z.literal('Notification'),
    Message: z.string(),
    MessageAttributes: z
      .record(z.string(), z.object({ Type: z.string(), Value: z.string() }))
      .nullish()
      .transform((attributes) => attributes ?? {}),
  }),
);

/** The event a Lambda function subscribed to the topic receives. */
const LambdaSnsEvent = z.lazy(() =>
  z.object({
    Records: z.array(z.object({ Sns: SnsNotification })).min(1, 'expected a record'),
  }),
);

/** What a topic carries: a CloudWatch alarm's notification, or an alert group from AMP's alert manager. */
function parseNotification(sns: z.output<typeof SnsNotification>, prefix: string, edge: EdgeFacts): Trigger {
  if (isAlertmanagerMessage(sns)) return parseAmpMessage(sns, prefix, edge);
  return parseAlarmMessage(sns.Message, `${prefix}Message`, edge);
}

/** An SNS notification as delivered over HTTP(S): `{ Type: "Notification", Message, ... }`. */
export function parseSnsNotification(payload: unknown, edge: EdgeFacts): Trigger {
  return parseNotification(parseWith(SnsNotification, payload), '', edge);
}

/** The Lambda SNS event: one Trigger per record. */
export function parseLambdaSnsEvent(payload: unknown, edge: EdgeFacts): Trigger[] {
  return parseWith(LambdaSnsEvent, payload).Records.map((record, index) =>
    parseNotification(record.Sns, `Records[${index}].Sns.`, edge),
  );
}
