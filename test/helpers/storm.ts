import type { RunRecord } from '../../src/store/types.ts';

/**
 * The usual alert storm, as Alertmanager sends it: one group per (cluster, alert name) that gains
 * an alert (another unmanaged pod) with each notification, so each one is a new delivery.
 * `n` counts from 0; the group carries alerts 0..n.
 */
export function growingGroup(cluster: string, alertname: string, n: number): Record<string, unknown> {
  return {
    version: '4',
    status: 'firing',
    receiver: 'cilium-responder',
    groupKey: `{}:{alertname="${alertname}", cluster="${cluster}"}`,
    groupLabels: { alertname },
    commonLabels: { alertname, cluster },
    commonAnnotations: {},
    externalURL: 'http://alertmanager:9093',
    truncatedAlerts: 0,
    alerts: Array.from({ length: n + 1 }, (_, i) => ({
      status: 'firing',
      labels: { alertname, cluster, pod: `web-${i}` },
      annotations: { summary: `pod web-${i} has no CiliumEndpoint` },
      startsAt: '2026-11-24T04:00:00Z',
      endsAt: '0001-01-01T00:00:00Z',
      generatorURL: 'http://prometheus:9090',
      fingerprint: `${cluster}-${alertname}-${i}`,
    })),
  };
}

/** What a storm came to, from the audit trail: runs per (cluster, runbook), and runs of one pair that overlapped. */
export interface StormOutcome {
  pairs: number;
  mostRunsPerPair: number;
  overlaps: number;
}

/** Runs are the records that started; two of one pair overlap when each started before the other finished. */
export function stormOutcome(records: readonly RunRecord[]): StormOutcome {
  const byPair = new Map<string, { start: number; end: number }[]>();
  for (const record of records) {
    if (!record.startedAt) continue;
    const pair = `${record.cluster}|${record.runbook}`;
    const end = record.finishedAt ? Date.parse(record.finishedAt) : Number.POSITIVE_INFINITY;
    byPair.set(pair, [...(byPair.get(pair) ?? []), { start: Date.parse(record.startedAt), end }]);
  }
  let overlaps = 0;
  for (const runs of byPair.values())
    runs.forEach((a, i) => {
      for (const b of runs.slice(i + 1)) if (a.start < b.end && b.start < a.end) overlaps++;
    });
  return {
    pairs: byPair.size,
    mostRunsPerPair: Math.max(0, ...[...byPair.values()].map((runs) => runs.length)),
    overlaps,
  };
}
