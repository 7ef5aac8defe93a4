import { describe, expect, it } from 'vitest';
import { Allocations } from '../../../sim/scenarios/allocations.ts';
import { Random } from '../../../sim/scenarios/random.ts';

describe('Cilium identities', () => {
  it('gives each label set its own identity, until the identity labels are restricted', () => {
    const allocations = new Allocations(new Random(1), 'sim');
    const a = allocations.identity('team-000', 'default', { app: 'svc-0000', team: 'team-000' });
    const b = allocations.identity('team-000', 'default', { app: 'svc-0001', team: 'team-000' });
    expect(a.id).not.toBe(b.id);
    allocations.identityLabelKeys = new Set(['team']);
    const c = allocations.identity('team-001', 'default', { app: 'svc-0025', team: 'team-001' });
    const d = allocations.identity('team-001', 'default', { app: 'svc-0026', team: 'team-001' });
    expect(c).toBe(d);
    expect(c.labels).not.toContain('k8s:app=svc-0025');
  });

  it('refuses a label set once all 65,280 cluster-local identities are taken, rather than looping', () => {
    const allocations = new Allocations(new Random(1), 'sim');
    for (let i = 0; i < 65_280; i++) allocations.identity('ns', 'default', { app: `a-${i}` });
    expect(() => allocations.identity('ns', 'default', { app: 'one-more' })).toThrow(
      'the cluster has used all 65280 Cilium identities',
    );
  });
});
