import { afterEach, describe, expect, it } from 'vitest';
import { RUNBOOKS } from '../../runbooks/index.ts';
import { RESPONDER_RULES } from '../../src/cluster/permissions.ts';
import { runRunbook } from '../../src/engine/run.ts';
import { shippedRules } from '../helpers/shipped-rbac.ts';
import { type SimUnderTest, simAccess, startScenario } from '../helpers/sim-access.ts';

/**
 * The permission set the deploy ships is enough for every runbook in every mode, and each rule in
 * it is needed: a token with exactly these rules runs all four runbooks against all four incidents.
 */
let current: SimUnderTest | undefined;
afterEach(async () => {
  await current?.sim.close();
  current = undefined;
});

describe('least privilege', () => {
  it('every runbook runs to a verdict with exactly the shipped permissions', async () => {
    current = await startScenario(['all']);
    // As deploy/rbac.yaml grants them: exec and agent restarts only in the Cilium namespace.
    const token = current.sim.issueToken('cilium-responder', shippedRules());
    const access = simAccess(current.sim, token.token);
    for (const runbook of RUNBOOKS) {
      for (const mode of ['dry-run', 'auto'] as const) {
        const report = await runRunbook({ runbook, access, mode });
        const errors = report.steps.filter((s) => s.status === 'error').map((s) => `${s.id}: ${s.summary}`);
        expect(errors, `${runbook.id} ${mode}`).toEqual([]);
        expect(report.verdict).not.toBe('failed');
      }
    }
  }, 120_000);

  it('a token without eviction rights is reported as forbidden, not a crash', async () => {
    current = await startScenario(['unmanaged-pods']);
    const rules = RESPONDER_RULES.filter((rule) => !rule.resources.includes('pods/eviction')).map((rule) => ({
      ...rule,
    }));
    const access = simAccess(current.sim, current.sim.issueToken('no-evict', rules).token);
    const unmanagedPods = RUNBOOKS.find((r) => r.id === 'unmanaged-pods');
    const report = await runRunbook({
      runbook: unmanagedPods as (typeof RUNBOOKS)[number],
      access,
      mode: 'auto',
    });
    const done = report.steps.flatMap((s) => s.done);
    expect(
      done.some((d) => d.outcome === 'failed' && d.detail?.includes('forbidden: create pods/eviction')),
    ).toBe(true);
    expect(done.some((d) => d.outcome === 'done')).toBe(false);
  });
});
