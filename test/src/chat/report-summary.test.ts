import { describe, expect, it } from 'vitest';
import { headline } from '../../../src/chat/report-summary.ts';
import type { Finding, Report } from '../../../src/engine/types.ts';
import { degraded } from './reports.ts';

const pod = (severity: Finding['severity'], message: string): Finding => ({
  code: 'UNMANAGED_POD',
  target: 'shop/web-1',
  severity,
  message,
});

/** The same pod found by the check and again by the verify step: one problem, not two. */
const repeated: Report = {
  ...degraded,
  steps: [
    { ...degraded.steps[0], findings: [pod('critical', 'shop/web-1 runs without a CiliumEndpoint')] },
    { ...degraded.steps[0], findings: [pod('warning', 'shop/web-1 still has no CiliumEndpoint')] },
  ],
} as Report;

describe('headline', () => {
  it('counts each problem once: found, fixed, open', () => {
    expect(headline(repeated)).toBe('unmanaged-pods on prod-eu: degraded, 1 found, 0 fixed, 1 open');
  });
});
