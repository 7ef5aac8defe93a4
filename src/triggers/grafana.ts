import * as z from 'zod';
import { AlertSchema, alertGroupTrigger, OptionalLabels, Status } from './alert-group.ts';
import type { EdgeFacts } from './edge.ts';
import type { Trigger } from './types.ts';
import { parseWith } from './validate.ts';

/**
 * Grafana unified alerting's webhook contact point (Grafana 9, 10, 11): Alertmanager's group
 * (Grafana's alerting runs an Alertmanager) with `version: "1"`, the org it came from, and fields
 * for people we do not use (`title`, `state`, `message`, per-alert `values` or `valueString`,
 * `silenceURL`, `dashboardURL`, `panelURL`), which pass through. Each alert's fingerprint is
 * Grafana's own (over labels it does not send), so it is required, never derived.
 */
export const GrafanaWebhookSchema = z.lazy(() =>
  z.object({
    version: z.literal('1'),
    orgId: z.number().int(),
    status: Status,
    groupLabels: OptionalLabels,
    commonLabels: OptionalLabels,
    alerts: z.array(AlertSchema.required({ fingerprint: true })).min(1, 'expected at least one alert'),
  }),
);

/** A Grafana notification as the Trigger an Alertmanager group makes: routed by alertname and labels alike. */
export function parseGrafana(payload: unknown, edge: EdgeFacts): Trigger {
  return alertGroupTrigger(parseWith(GrafanaWebhookSchema, payload), edge, 'grafana');
}
