import * as z from 'zod';
import { alertFingerprint } from './alert-fingerprint.ts';
import { deliveryKey } from './delivery-key.ts';
import type { EdgeFacts } from './edge.ts';
import type { Alert, Trigger } from './types.ts';
import { NonEmpty } from './validate.ts';

const Labels = z.record(z.string(), z.string());
/** A label map a sender may leave out or write as null (an empty group, a hand-written sender). */
export const OptionalLabels = Labels.nullish().transform((labels) => labels ?? {});
export const Status = z.enum(['firing', 'resolved']);

/**
 * One alert of an Alertmanager notification, whoever wrote it out: Alertmanager's webhook, AWS's
 * JSON template for Amazon Managed Prometheus, Grafana's webhook contact point.
 */
export const AlertSchema = z.object({
  // Always sent by Alertmanager; a sender that leaves it out means the group's status.
  status: Status.optional(),
  // Prometheus always sets alertname; routes match on it.
  labels: z.object({ alertname: NonEmpty }).catchall(z.string()),
  annotations: OptionalLabels,
  startsAt: z.string(),
  // Sent since Alertmanager 0.19; derived from the labels, as Alertmanager does, when absent.
  fingerprint: NonEmpty.optional(),
});

/** What every Alertmanager-shaped notification says about its group. */
export interface AlertGroup {
  status: z.output<typeof Status>;
  groupLabels: Record<string, string>;
  commonLabels: Record<string, string>;
  alerts: z.output<typeof AlertSchema>[];
}

function toAlert(alert: AlertGroup['alerts'][number], groupStatus: AlertGroup['status']): Alert {
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
 * makes one job per (cluster, runbook). The deliveryKey is the group's labels, status and alert
 * fingerprints, which every way out of Alertmanager carries (the webhook, AMP's SNS message):
 * the same notification resent, or sent both ways, has the same key; a group that gained or lost
 * an alert, or changed status, gets a new one. A derived fingerprint equals the one Alertmanager
 * would have sent, so old and new senders key alike.
 */
export function alertGroupTrigger(group: AlertGroup, edge: EdgeFacts, actorId: string): Trigger {
  const alerts = group.alerts.map((alert) => toAlert(alert, group.status));
  const fingerprints = alerts.map((alert) => alert.fingerprint).sort();
  const groupLabels = JSON.stringify(Object.entries(group.groupLabels).sort());
  return {
    source: 'alertmanager',
    receivedAt: edge.receivedAt.toISOString(),
    deliveryKey: deliveryKey('alertmanager', [group.status, groupLabels, ...fingerprints]),
    // Only a cluster the whole group shares; otherwise routing reads each alert's label.
    cluster: group.commonLabels.cluster ?? group.groupLabels.cluster,
    alerts,
    status: group.status,
    actor: { kind: 'system', id: actorId },
  };
}
