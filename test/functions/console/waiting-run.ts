import type { Report } from '../../../src/engine/types.ts';
import type { RunRecord } from '../../../src/store/types.ts';
import { CLUSTER } from '../harness.ts';

/** What an alert can smuggle into any text it carries: each must show as text, never as markup. */
export const HOSTILE = {
  script: '<script>alert(1)</script>',
  img: '<img src=x onerror=alert(2)>',
};

/**
 * A run of unmanaged-pods in approve mode that found two unmanaged pods and waits for an approver
 * to evict them, as the worker records it; its alert carries hostile annotations and labels.
 */
export function waitingRun(runId = 'run-wait-1', finishedAt = '2026-11-21T09:58:00.000Z'): RunRecord {
  const report: Report = {
    runId,
    runbook: 'unmanaged-pods',
    cluster: CLUSTER,
    mode: 'approve',
    verdict: 'needs-approval',
    timings: { startedAt: '2026-11-21T09:57:50.000Z', finishedAt, durationMs: 10_000 },
    params: [{ key: 'namespaces', value: ['shop'], by: '<@U0APPROVER1>' }],
    steps: [
      {
        id: 'find-unmanaged',
        title: 'Find unmanaged pods',
        status: 'fail',
        summary: '2 unmanaged pods on 1 node',
        durationMs: 8_000,
        findings: [
          {
            code: 'UNMANAGED_POD',
            target: 'shop/web-1',
            severity: 'warning',
            message: `pod has no Cilium endpoint ${HOSTILE.img}`,
            fix: 'kubectl -n shop delete pod web-1',
          },
          {
            code: 'UNMANAGED_POD',
            target: 'shop/web-2',
            severity: 'warning',
            message: 'pod has no Cilium endpoint',
          },
        ],
        evidence: [
          { source: 'ip-10-0-1-23: cilium-dbg endpoint list', text: `ENDPOINT 1234 ${HOSTILE.script}` },
        ],
        plan: [
          { action: 'evict-pod', target: 'shop/web-1', reason: 'unmanaged', uid: 'uid-1' },
          { action: 'evict-pod', target: 'shop/web-2', reason: 'unmanaged', uid: 'uid-2' },
        ],
        done: [
          { action: 'evict-pod', target: 'shop/web-1', outcome: 'planned', detail: 'waiting for approval' },
          { action: 'evict-pod', target: 'shop/web-2', outcome: 'planned', detail: 'waiting for approval' },
        ],
      },
    ],
  };
  return {
    runId,
    jobId: `job-${runId}`,
    cluster: CLUSTER,
    runbook: 'unmanaged-pods',
    mode: 'approve',
    source: 'alertmanager',
    actor: 'alertmanager',
    reason: 'CiliumUnmanagedPods',
    trigger: {
      receivedAt: '2026-11-21T09:57:49.000Z',
      actor: { kind: 'system', id: 'alertmanager' },
      alerts: [
        {
          name: 'CiliumUnmanagedPods',
          status: 'firing',
          fingerprint: 'f1',
          labels: { alertname: 'CiliumUnmanagedPods', cluster: CLUSTER, team: HOSTILE.img },
          annotations: { summary: HOSTILE.script, description: HOSTILE.img },
          startsAt: '2026-11-21T09:50:00.000Z',
        },
      ],
      alertCount: 1,
    },
    params: { namespaces: ['shop'] },
    paramsBy: { namespaces: '<@U0APPROVER1>' },
    status: 'done',
    verdict: 'needs-approval',
    plan: ['evict-pod:shop/web-1', 'evict-pod:shop/web-2'],
    actions: [],
    queuedAt: '2026-11-21T09:57:49.500Z',
    startedAt: '2026-11-21T09:57:50.000Z',
    finishedAt,
    report,
    summary: { diagnosis: 'x', found: 2, fixed: 0, open: 2 },
  };
}
