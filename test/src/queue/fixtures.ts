import type { Job } from '../../../src/queue/job.ts';

/** A job as routing builds it from an Alertmanager alert. */
export function sampleJob(id = 'job-1', overrides: Partial<Job> = {}): Job {
  return {
    id,
    runbook: 'unmanaged-pods',
    cluster: 'prod-eu',
    mode: 'dry-run',
    params: { namespaces: ['shop'] },
    trigger: {
      source: 'alertmanager',
      receivedAt: '2024-05-01T12:00:00.000Z',
      deliveryKey: 'alertmanager:0123abcd',
      cluster: 'prod-eu',
      alerts: [
        {
          name: 'CiliumUnmanagedPods',
          status: 'firing',
          fingerprint: 'c6f1a2b3d4e5f607',
          labels: { alertname: 'CiliumUnmanagedPods', cluster: 'prod-eu' },
          annotations: { summary: 'pods without a CiliumEndpoint' },
        },
      ],
      status: 'firing',
      actor: { kind: 'system', id: 'alertmanager' },
    },
    dedupeKey: `alertmanager:0123abcd|prod-eu|unmanaged-pods|${id}`,
    ...overrides,
  };
}

/** A promise with its resolve, to hold a handler until the test lets it go. */
export function gate(): { promise: Promise<void>; open(): void } {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}
