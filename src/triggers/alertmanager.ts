import * as z from 'zod';
import { AlertSchema, alertGroupTrigger, OptionalLabels, Status } from './alert-group.ts';
import type { EdgeFacts } from './edge.ts';
import type { Trigger } from './types.ts';
import { NonEmpty, parseWith } from './validate.ts';

/**
 * Alertmanager's webhook payload, version 4 (every Alertmanager since 0.15): one notification for
 * a whole alert group. Only the fields we use are checked, and fields added later
 * (`truncatedAlerts`, 0.21) or never used (`receiver`, `externalURL`, `generatorURL`, `endsAt`)
 * pass through; `version` comes first so an unsupported version is the error reported.
 */
export const AlertmanagerWebhookSchema = z.lazy(() =>
  z.object({
    version: z.literal('4'),
    groupKey: NonEmpty,
    status: Status,
    groupLabels: OptionalLabels,
    commonLabels: OptionalLabels,
    alerts: z.array(AlertSchema).min(1, 'expected at least one alert'),
  }),
);

/** One Trigger per notification (see alertGroupTrigger). */
export function parseAlertmanager(payload: unknown, edge: EdgeFacts): Trigger {
  return alertGroupTrigger(parseWith(AlertmanagerWebhookSchema, payload), edge, 'alertmanager');
}
