import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { fingerprint } from '../../../src/engine/fingerprint.ts';
import type { Finding } from '../../../src/engine/types.ts';

const base = ['prod-eu', 'unmanaged-pods', 'UNMANAGED_POD', 'shop/web-1'] as const;

describe('fingerprint', () => {
  it('is 16 lowercase hex characters, the same on every call', () => {
    const first = fingerprint(...base);
    expect(first).toMatch(/^[0-9a-f]{16}$/);
    expect(fingerprint(...base)).toBe(first);
    expect(fingerprint('prod-eu', 'unmanaged-pods', 'UNMANAGED_POD', 'shop/web-1')).toBe(first);
  });

  it('is pinned: the first 16 hex of sha256 over the four parts joined by NUL', () => {
    const expected = createHash('sha256').update(base.join('\u0000')).digest('hex').slice(0, 16);
    expect(fingerprint(...base)).toBe(expected);
  });

  it('differs per cluster, runbook, code and target', () => {
    const seen = new Set([
      fingerprint(...base),
      fingerprint('prod-us', 'unmanaged-pods', 'UNMANAGED_POD', 'shop/web-1'),
      fingerprint('prod-eu', 'host-identity', 'UNMANAGED_POD', 'shop/web-1'),
      fingerprint('prod-eu', 'unmanaged-pods', 'OPERATOR_SELECTOR_NARROW', 'shop/web-1'),
      fingerprint('prod-eu', 'unmanaged-pods', 'UNMANAGED_POD', 'shop/web-2'),
    ]);
    expect(seen.size).toBe(5);
  });

  it('does not run parts together: moving a boundary changes it', () => {
    expect(fingerprint('a', 'bc', 'X', 't')).not.toBe(fingerprint('ab', 'c', 'X', 't'));
    expect(fingerprint('c', 'r', 'CODE', 'ns/pod')).not.toBe(fingerprint('c', 'r', 'CODEns', '/pod'));
  });

  it('ignores the wording of the message: two findings with different messages share it', () => {
    const before: Finding = {
      code: 'UNMANAGED_POD',
      target: 'shop/web-1',
      severity: 'warning',
      message: 'shop/web-1 has no CiliumEndpoint (started 3 minutes ago)',
    };
    const after: Finding = {
      ...before,
      severity: 'critical',
      message: 'shop/web-1 has had no CiliumEndpoint for 2 hours',
      fix: 'kubectl delete pod -n shop web-1',
    };
    const of = (finding: Finding) => fingerprint('prod-eu', 'unmanaged-pods', finding.code, finding.target);
    expect(of(after)).toBe(of(before));
  });
});
