import type { Finding, PlannedAction, Report, StepReport } from '../../../src/engine/types.ts';

/** Reports as the engine builds them, for the chat tests. */

export function step(id: string, overrides: Partial<StepReport> = {}): StepReport {
  return {
    id,
    title: `Step ${id}`,
    status: 'pass',
    summary: `${id} looked fine`,
    findings: [],
    evidence: [],
    plan: [],
    done: [],
    durationMs: 120,
    ...overrides,
  };
}

export function report(overrides: Partial<Report> = {}): Report {
  return {
    runId: 'run-0001',
    runbook: 'unmanaged-pods',
    cluster: 'prod-eu',
    mode: 'auto',
    verdict: 'healthy',
    steps: [step('scan'), step('verify')],
    timings: {
      startedAt: '2024-05-01T12:00:00.000Z',
      finishedAt: '2024-05-01T12:00:01.250Z',
      durationMs: 1250,
    },
    ...overrides,
  };
}

export function unmanagedPod(index: number, severity: Finding['severity'] = 'warning'): Finding {
  return {
    code: 'UNMANAGED_POD',
    target: `shop/web-${index}`,
    severity,
    message: `shop/web-${index} runs without a CiliumEndpoint, so policy does not apply to it`,
  };
}

export function eviction(index: number): PlannedAction {
  return {
    action: 'evict-pod',
    target: `shop/web-${index}`,
    reason: 'no CiliumEndpoint',
    uid: `uid-${index}`,
  };
}

export const healthy = report();

/** 3 critical and 10 warning findings; two actions, one blocked by a PDB. */
export const degraded = report({
  verdict: 'degraded',
  steps: [
    step('scan', {
      title: 'Find unmanaged pods',
      status: 'fail',
      summary: '13 unmanaged pods on 2 nodes',
      findings: [
        ...Array.from({ length: 10 }, (_, i) => unmanagedPod(i + 1)),
        ...Array.from({ length: 3 }, (_, i) => ({
          ...unmanagedPod(i + 11, 'critical'),
          fix: 'kubectl -n kube-system rollout restart ds/cilium',
        })),
      ],
    }),
    step('evict', {
      title: 'Restart unmanaged pods',
      status: 'warn',
      summary: '1 evicted, 1 blocked',
      done: [
        { action: 'evict-pod', target: 'shop/web-1', outcome: 'done' },
        {
          action: 'evict-pod',
          target: 'shop/web-2',
          outcome: 'blocked',
          detail: 'PodDisruptionBudget shop/web allows 0',
        },
      ],
    }),
    step('verify', { title: 'Check replacements', status: 'fail', summary: '1 replacement has no CEP yet' }),
  ],
});

/** Stopped before the write step: two evictions wait for a person. */
export const needsApproval = report({
  mode: 'approve',
  verdict: 'needs-approval',
  steps: [
    step('scan', {
      title: 'Find unmanaged pods',
      status: 'fail',
      summary: '2 unmanaged pods',
      findings: [unmanagedPod(1), unmanagedPod(2)],
    }),
    step('evict', {
      title: 'Restart unmanaged pods',
      status: 'warn',
      summary: '2 evictions wait for approval',
      plan: [eviction(1), eviction(2)],
      done: [
        { action: 'evict-pod', target: 'shop/web-1', outcome: 'planned' },
        { action: 'evict-pod', target: 'shop/web-2', outcome: 'planned' },
      ],
    }),
    step('verify', { title: 'Check replacements', status: 'skip', summary: 'waiting for approval' }),
  ],
});
