import * as z from 'zod';
import { alertFingerprint } from './alert-fingerprint.ts';
import { deliveryKey } from './delivery-key.ts';
import type { EdgeFacts } from './edge.ts';
import type { Alert, Trigger } from './types.ts';
import { NonEmpty, parseWith } from './validate.ts';

const Labels = z.record(z.string(), z.string());
/** A label map a sender may leave out or write as null (an empty group, a hand-written sender). */
const OptionalLabels = Labels.nullish().transform((labels) => labels ?? {});
const Status = z.enum(['firing', 'resolved']);

const AlertSchema = z.object({
  // Always sent by Alertmanager; a sender that leaves it out means the group's status.
  status: Status.optional(),
  // Prometheus always sets alertname; routes match on it.
  labels: z.object({ alertname: NonEmpty }).catchall(z.string()),
  annotations: OptionalLabels,
  startsAt: z.string(),
  // Sent since Alertmanager 0.19; derived from the labels, as Alertmanager does, when absent.
  fingerprint: NonEmpty.optional(),
});

/**
 * Alertmanager's webhook payload, version 4 (every Alertmanager since 0.15): one notification for
 * a whole alert group. Only the fields we use are checked, and fields added later
 * (`truncatedAlerts`, 0.21) or never used (`receiver`, `externalURL`, `generatorURL`, `endsAt`)
 * pass through; `version` comes first so an unsupported version is the error reported.
 */
export const AlertmanagerWebhookSchema = z.object({
  version: z.literal('4'),
  groupKey: NonEmpty,
  status: Status,
  groupLabels: OptionalLabels,
  commonLabels: OptionalLabels,
  alerts: z.array(AlertSchema).min(1, 'expected at least one alert'),
});

type Webhook = z.infer<typeof AlertmanagerWebhookSchema>;
type WebhookAlert = Webhook['alerts'][number];

function toAlert(alert: WebhookAlert, groupStatus: Webhook['status']): Alert {
  return {
    name: alert.labels.alertname,
    status: alert.status ?? groupStatus,
    fingerprint: alert.fingerprint ?? alertFingerprint(alert.labels),
    labels: alert.labels,
    annotations: alert.annotations,
    startsAt: alert.startsAt,
  };
}

/**
 * One Trigger per notification, never per alert: a group of 30 alerts is one Trigger, so routing
 * makes one job per (cluster, runbook). The same notification resent (Alertmanager retries, or
 * 100 copies at once) has the same group key, status and fingerprints, hence the same
 * deliveryKey; a group that gained or lost an alert, or changed status, gets a new one. A derived
 * fingerprint equals the one Alertmanager would have sent, so old and new senders key alike.
 */
export function parseAlertmanager(payload: unknown, edge: EdgeFacts): Trigger {
  const webhook = parseWith(AlertmanagerWebhookSchema, payload);
  const alerts = webhook.alerts.map((alert) => toAlert(alert, webhook.status));
  const fingerprints = alerts.map((alert) => alert.fingerprint).sort();
  return {
    source: 'alertmanager',
    receivedAt: edge.receivedAt.toISOString(),
    deliveryKey: deliveryKey('alertmanager', [webhook.groupKey, webhook.status, ...fingerprints]),
    // Only a cluster the whole group shares; otherwise routing reads each alert's label.
    cluster: webhook.commonLabels.cluster ?? webhook.groupLabels.cluster,
    alerts,
    status: webhook.status,
    actor: { kind: 'system', id: 'alertmanager' },
  };
}
