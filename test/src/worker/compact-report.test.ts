import { describe, expect, it } from 'vitest';
import type { Finding, Report } from '../../../src/engine/types.ts';
import { compactReport } from '../../../src/worker/compact-report.ts';

function report(findings: number, evidence: number): Report {
  const finding = (i: number): Finding => ({
    code: 'UNMANAGED_POD',
    target: `shop/web-${i}`,
    severity: 'critical',
    message: `web-${i} has no CiliumEndpoint`.padEnd(200, '.'),
  });
  return {
    runId: 'run-1',
    runbook: 'unmanaged-pods',
    cluster: 'prod-eu',
    mode: 'dry-run',
    verdict: 'degraded',
    steps: [
      {
        id: 'find-unmanaged',
        title: 'Find',
        status: 'fail',
        summary: `${findings} unmanaged pods`,
        findings: Array.from({ length: findings }, (_, i) => finding(i)),
        evidence: Array.from({ length: evidence }, (_, i) => ({
          source: `node-${i}`,
          text: 'x'.repeat(5000),
        })),
        plan: [],
        done: [],
        durationMs: 1,
      },
    ],
    timings: { startedAt: '2026-11-21T10:00:00Z', finishedAt: '2026-11-21T10:00:01Z', durationMs: 1000 },
  };
}

const size = (r: Report) => Buffer.byteLength(JSON.stringify(r));

describe('compactReport', () => {
  it('keeps a report that fits as it is', () => {
    const small = report(5, 2);
    expect(compactReport(small)).toBe(small);
  });

  it('drops evidence first, keeping every finding', () => {
    const compacted = compactReport(report(200, 100));
    expect(size(compacted)).toBeLessThanOrEqual(300_000);
    expect(compacted.steps[0]?.findings).toHaveLength(200);
    expect(compacted.steps[0]?.evidence).toHaveLength(3);
  });

  it('keeps the first hundred findings of a huge step and says how many there were', () => {
    const compacted = compactReport(report(5000, 10));
    expect(size(compacted)).toBeLessThanOrEqual(300_000);
    expect(compacted.steps[0]?.findings).toHaveLength(100);
    expect(compacted.steps[0]?.summary).toBe(
      '5000 unmanaged pods (first 100 of 5000 findings kept in the audit record)',
    );
    expect(compacted.verdict).toBe('degraded');
  });
});
