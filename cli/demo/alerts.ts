import { createHash } from 'node:crypto';

/** The alert each incident's Prometheus rule fires (see responder.config.example.yaml's routes). */
export const INCIDENT_ALERTS = [
  { alertname: 'CiliumUnmanagedPods', summary: 'Pods without a CiliumEndpoint keep restarting' },
  { alertname: 'CiliumClusterIPUnreachable', summary: 'ClusterIP services time out from pods' },
  { alertname: 'CiliumPolicyDeniedDrops', summary: 'Readiness probes dropped by policy' },
  { alertname: 'CiliumUnreachableNodes', summary: 'Cross-node traffic lost in the tunnel' },
] as const;

/** An Alertmanager v4 webhook notification for one alert group, as Alertmanager posts it. */
export function alertmanagerNotification(
  alertname: string,
  summary: string,
  cluster: string,
  startsAt: Date,
) {
  const labels = { alertname, cluster, severity: 'critical' };
  const fingerprint = createHash('sha256').update(JSON.stringify(labels)).digest('hex').slice(0, 16);
  return {
    version: '4',
    groupKey: `{}:{alertname="${alertname}", cluster="${cluster}"}`,
    truncatedAlerts: 0,
    status: 'firing',
    receiver: 'cilium-responder',
    groupLabels: { alertname, cluster },
    commonLabels: labels,
    commonAnnotations: { summary },
    externalURL: 'http://alertmanager.invalid',
    alerts: [
      {
        status: 'firing',
        labels,
        annotations: { summary },
        startsAt: startsAt.toISOString(),
        endsAt: '0001-01-01T00:00:00Z',
        generatorURL: 'http://prometheus.invalid/graph',
        fingerprint,
      },
    ],
  };
}
