import { describe, expect, it } from 'vitest';
import { replacementUnmanagedFinding, resultExplanation } from '../../../runbooks/unmanaged-pods/findings.ts';
import type { PodFacts } from '../../../src/engine/pod-facts.ts';

const pod = (name: string, node: string): PodFacts => ({
  namespace: 'shop',
  name,
  uid: `uid-${name}`,
  node,
  labels: {},
  hostNetwork: false,
  terminating: false,
  mirror: false,
  owner: { kind: 'ReplicaSet', name: 'web-7d9', uid: 'rs-1' },
});

describe('replacementUnmanagedFinding', () => {
  it('says a replacement with no node waits for scheduling, never "on  has no CiliumEndpoint"', () => {
    const finding = replacementUnmanagedFinding(pod('web-1', 'ip-10-0-1-1'), pod('web-2', ''), '20s');
    expect(finding).toMatchObject({ code: 'REPLACEMENT_PENDING', target: 'shop/web-2', severity: 'warning' });
    expect(finding.message).toBe(
      'Replacement of web-1 is still Pending after 20s, waiting to be scheduled; Cilium manages it once it runs on a node',
    );
    expect(finding.fix).toBe('kubectl -n shop describe pod web-2 (its Events say why it is not scheduled)');
  });

  it('names the node of a scheduled replacement that has no endpoint', () => {
    const finding = replacementUnmanagedFinding(pod('web-1', 'a'), pod('web-2', 'b'), '20s');
    expect(finding.code).toBe('REPLACEMENT_UNMANAGED');
    expect(finding.message).toMatch(/^Replacement of web-1 on b has no CiliumEndpoint after 20s/);
  });
});

describe('resultExplanation', () => {
  const blocked = {
    action: 'evict-pod',
    target: 'shop/web-1',
    outcome: 'blocked' as const,
    detail: "Cannot evict pod as it would violate the pod's disruption budget.",
  };

  it('gives a budget-blocked pod a fix that names the budget before the delete', () => {
    const { reason, fix } = resultExplanation(blocked, pod('web-1', 'a'), 'dry-run');
    expect(reason).toBe(`eviction blocked: ${blocked.detail}`);
    expect(fix).toMatch(/^Its PodDisruptionBudget allows no disruption now \(kubectl -n shop get pdb\)/);
    expect(fix).toContain('Deleting bypasses the budget: kubectl -n shop delete pod web-1');
  });

  it('words a planned eviction by mode: dry-run would restart, approve waits for approval', () => {
    const planned = { ...blocked, outcome: 'planned' as const, detail: 'approval required' };
    expect(resultExplanation(planned, pod('web-1', 'a'), 'dry-run').reason).toBe(
      'dry-run: the responder would restart it by eviction (its budgets allow it)',
    );
    expect(resultExplanation(planned, pod('web-1', 'a'), 'approve').reason).toBe(
      'eviction awaiting approval (approval required)',
    );
  });
});
