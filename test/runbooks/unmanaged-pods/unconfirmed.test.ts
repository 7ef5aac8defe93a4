import { afterEach, describe, expect, it } from 'vitest';
import { unmanagedPods } from '../../../runbooks/unmanaged-pods/index.ts';
import { R } from '../../../sim/cluster.ts';
import type { UnmanagedPodsPlan } from '../../../sim/scenarios/plan.ts';
import { runRunbook } from '../../../src/engine/run.ts';
import type { Report } from '../../../src/engine/types.ts';
import { summarize } from '../../../src/report/summary.ts';
import { type SimUnderTest, startScenario } from '../../helpers/sim-access.ts';

let current: SimUnderTest | undefined;
afterEach(async () => {
  await current?.sim.close();
  current = undefined;
});

/** An auto run whose evictions are answered 504, after (or before) the API carried them out. */
async function evictWith(afterApply: boolean) {
  current = await startScenario(['unmanaged-pods']);
  const { sim, access } = current;
  const planted = current.plan.unmanagedPods as UnmanagedPodsPlan;
  sim.faults.set('eviction', { errorRate: 1, errorCode: 504, afterApply });
  const report = await runRunbook({ runbook: unmanagedPods, access, mode: 'auto' });
  sim.faults.clear();
  const stillThere = planted.evictable.filter(
    (pod) => sim.cluster.store.get(R.pods, pod.namespace, pod.name)?.metadata.uid === pod.uid,
  );
  return { report, planted, stillThere };
}

const stepOf = (report: Report, id: string) => report.steps.find((s) => s.id === id);

describe('unmanaged-pods evictions whose answer was lost', () => {
  it('applied: the restart step says unconfirmed, verify-replacements finds them evicted and checks the replacements', async () => {
    const { report, planted, stillThere } = await evictWith(true);
    const n = planted.evictable.length;
    expect(stillThere).toEqual([]);
    const restart = stepOf(report, 'restart-unmanaged');
    expect(restart?.status).toBe('warn');
    expect(restart?.summary).toContain(`unconfirmed (may have happened) ${n}`);
    const verify = stepOf(report, 'verify-replacements');
    expect(verify?.summary).toMatch(
      new RegExp(
        `^${n} unconfirmed evictions: ${n} happened, 0 did not; CiliumEndpoint on \\d+ of ${n} replacements`,
      ),
    );
    expect(verify?.evidence.map((e) => e.text)).toEqual(
      planted.evictable.map(() => expect.stringMatching(/: it happened$/)),
    );
    // Evicted and replaced: those problems are fixed, though no write was confirmed.
    const summary = summarize(report);
    const fixed = summary.found.filter((p) => p.state === 'fixed').map((p) => p.target);
    expect(fixed).toEqual(expect.arrayContaining(planted.evictable.map((p) => `${p.namespace}/${p.name}`)));
    expect(summary.done).toEqual([]);
    expect(summary.unconfirmed).toHaveLength(n);
  });

  it('not applied (a 504 before the write): verify-replacements says so for each pod, still unmanaged', async () => {
    const { report, planted, stillThere } = await evictWith(false);
    expect(stillThere).toHaveLength(planted.evictable.length);
    const verify = stepOf(report, 'verify-replacements');
    expect(verify?.summary).toMatch(/^\d+ unconfirmed evictions: 0 happened, \d+ did not; /);
    for (const pod of planted.evictable) {
      const finding = verify?.findings.find((f) => f.target === `${pod.namespace}/${pod.name}`);
      expect(finding?.message).toContain(
        "its eviction's answer was lost, and the same pod (same uid) is still running: it did not happen",
      );
    }
    expect(report.verdict).toBe('degraded');
    const open = summarize(report).open.filter((p) =>
      planted.evictable.some((e) => p.target === `${e.namespace}/${e.name}`),
    );
    expect(open.map((p) => p.because)).toEqual(planted.evictable.map(() => 'write unconfirmed, still found'));
  });
});
