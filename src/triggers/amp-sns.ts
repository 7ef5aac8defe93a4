import * as z from 'zod';
import { TriggerError } from '../validation/trigger-error.ts';
import { AlertSchema, alertGroupTrigger, OptionalLabels, Status } from './alert-group.ts';
import type { EdgeFacts } from './edge.ts';
import { brokenJsonPath } from './json-break.ts';
import type { Trigger } from './types.ts';
import { parseWith } from './validate.ts';

const DOCS = 'docs/alert-sources.md';

/** An SNS message as the alarm function receives it (Lambda event record or HTTP notification). */
export interface SnsMessage {
  Message: string;
  /** `{Type, Value}` per attribute, as SNS delivers them to Lambda and over HTTP. */
  MessageAttributes: Record<string, { Value: string }>;
}

/**
 * Go's default time format, which AWS's template prints (`2026-11-28 07:06:24.633 +0000 UTC`,
 * a monotonic clock reading ` m=+0.1` possibly after it), rewritten as Go writes the same instant in
 * JSON (RFC 3339: `2026-11-28T07:06:24.633Z`), so an alert reads the same from SNS or the webhook.
 */
const GoTime = z
  .string()
  .regex(
    /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(\.\d+)? [+-]\d{4} \S+( m=[+-]\d+\.\d+)?$/,
    'expected a Go time such as "2026-11-28 07:06:24.633 +0000 UTC"',
  )
  .transform((text) => {
    const [date, time, offset] = text.split(' ') as [string, string, string];
    const zone = offset === '+0000' ? 'Z' : `${offset.slice(0, 3)}:${offset.slice(3)}`;
    return `${date}T${time}${zone}`;
  });

/**
 * The message AWS's JSON template for Amazon Managed Prometheus writes (`sns.default.message` in
 * the AMP user guide, "Configure alert manager to send messages to Amazon SNS as JSON"): the
 * webhook's group without `version`, `groupKey` or `externalURL`, and Go-formatted times. The
 * template leaves out `labels`, `annotations` and the group's label maps when they are empty.
 */
export const AmpMessageSchema = z.lazy(() =>
  z.object({
    receiver: z.string(),
    status: Status,
    alerts: z.array(AlertSchema.extend({ startsAt: GoTime })).min(1, 'expected at least one alert'),
    groupLabels: OptionalLabels,
    commonLabels: OptionalLabels,
  }),
);

// Alertmanager's default SNS text (default.tmpl, "sns.default.message") lists alerts under these.
const DEFAULT_TEXT = /^(Alerts Firing|Alerts Resolved):$/m;

/**
 * Whether this SNS message came from Alertmanager (AMP), rather than from a CloudWatch alarm: by
 * the attributes its SNS receiver adds to a message it altered, or by the message itself.
 */
export function isAlertmanagerMessage(sns: SnsMessage): boolean {
  return (
    'truncated' in sns.MessageAttributes ||
    'modified' in sns.MessageAttributes ||
    /^\s*\{\s*"receiver"/.test(sns.Message) ||
    DEFAULT_TEXT.test(sns.Message)
  );
}

function refuseAltered(sns: SnsMessage, prefix: string): void {
  const modified = sns.MessageAttributes.modified?.Value;
  if (sns.MessageAttributes.truncated?.Value === 'true')
    throw new TriggerError(
      `${prefix}MessageAttributes.truncated`,
      `the alert group was cut at SNS's 256 KB limit${modified ? ` (${modified})` : ''}, so nothing runs from part of it: split the group with more labels in the route's group_by (e.g. node), see ${DOCS}`,
    );
  if (modified?.startsWith('Message:'))
    throw new TriggerError(`${prefix}MessageAttributes.modified`, `SNS replaced the message: ${modified}`);
}

function decode(message: string, field: string): unknown {
  try {
    return JSON.parse(message);
  } catch {
    if (DEFAULT_TEXT.test(message))
      throw new TriggerError(
        field,
        `this is Alertmanager's default text: set AWS's JSON template (sns.default.message) in the AMP alert manager definition's template_files, see ${DOCS}`,
      );
    const path = brokenJsonPath(message);
    throw new TriggerError(
      path ? `${field}.${path}` : field,
      `not JSON: AMP's JSON template (sns.default.message) writes values unescaped, and this one holds a quote, backslash or line break; take it out of the alert rule, see ${DOCS}`,
    );
  }
}

/**
 * An Amazon Managed Prometheus alert group arriving on SNS, as the same Trigger the Alertmanager
 * webhook makes of it (same alerts, fingerprints, routes and dedupe keys). `prefix` is where the
 * SNS notification is in the event (`Records[0].Sns.`, or nothing). A message SNS or AMP altered (cut at 256 KB, replaced) is
 * refused, never half-read.
 */
export function parseAmpMessage(sns: SnsMessage, prefix: string, edge: EdgeFacts): Trigger {
  refuseAltered(sns, prefix);
  const messageField = `${prefix}Message`;
  const group = parseWith(AmpMessageSchema, decode(sns.Message, messageField), messageField);
  return alertGroupTrigger(group, edge, 'alertmanager');
}
