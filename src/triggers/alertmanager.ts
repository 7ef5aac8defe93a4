import { z } from 'zod';
import { deliveryKey } from './delivery-key.ts';
import type { EdgeFacts } from './edge.ts';
import type { Alert, Trigger } from './types.ts';
import { NonEmpty, parseWith } from './validate.ts';

const Labels = z.record(z.string(), z.string());
const Status = z.enum(['firing', 'resolved']);

const AlertSchema = z.object({
  status: Status,
  // Prometheus always sets alertname; routes match on it.
  labels: z.object({ alertname: NonEmpty }).catchall(z.string()),
  annotations: Labels,
  startsAt: z.string(),
  fingerprint: NonEmpty,
});

/**
 * Alertmanager's webhook payload, version 4: one notification for a whole alert group. Only the
 * fields we use are checked; `version` comes first so an unsupported version is the error reported.
 */
export const AlertmanagerWebhookSchema = z.object({
  version: z.literal('4'),
  groupKey: NonEmpty,
  status: Status,
  groupLabels: Labels,
  commonLabels: Labels,
  alerts: z.array(AlertSchema).min(1, 'expected at least one alert'),
});

type WebhookAlert = z.infer<typeof AlertSchema>;

function toAlert(alert: WebhookAlert): Alert {
  return {
    name: alert.labels.alertname,
    status: alert.status,
    fingerprint: alert.fingerprint,
    labels: alert.labels,
    annotations: alert.annotations,
    startsAt: alert.startsAt,
  };
}

/**
 * One Trigger per notification, never per alert: a group of 30 alerts is one Trigger, so routing
 * makes one job per (cluster, runbook). The same notification resent (Alertmanager retries, or
 * 100 copies at once) has the same group key, status and fingerprints, hence the same
 * deliveryKey; a group that gained or lost an alert, or changed status, gets a new one.
 */
export function parseAlertmanager(payload: unknown, edge: EdgeFacts): Trigger {
  const webhook = parseWith(AlertmanagerWebhookSchema, payload);
  const fingerprints = webhook.alerts.map((alert) => alert.fingerprint).sort();
  return {
    source: 'alertmanager',
    receivedAt: edge.receivedAt.toISOString(),
    deliveryKey: deliveryKey('alertmanager', [webhook.groupKey, webhook.status, ...fingerprints]),
    // Only a cluster the whole group shares; otherwise routing reads each alert's label.
    cluster: webhook.commonLabels.cluster ?? webhook.groupLabels.cluster,
    alerts: webhook.alerts.map(toAlert),
    status: webhook.status,
    actor: { kind: 'system', id: 'alertmanager' },
  };
}
