import { afterEach, describe, expect, it } from 'vitest';
import { unmanagedPods } from '../../../runbooks/unmanaged-pods/index.ts';
import { RESOURCES } from '../../../src/cluster/types.ts';
import { runRunbook } from '../../../src/engine/run.ts';
import { type SimUnderTest, startScenario } from '../../helpers/sim-access.ts';

let current: SimUnderTest | undefined;
afterEach(async () => {
  await current?.sim.close();
  current = undefined;
});

describe('unmanaged-pods when an evicted pod is never replaced', () => {
  it('says REPLACEMENT_MISSING for it after the wait, and the run is degraded, not remediated', async () => {
    // The controller manager is down: nothing recreates an evicted pod.
    current = await startScenario(['unmanaged-pods'], { sim: { controllers: false } });
    const { access } = current;

    const report = await runRunbook({
      runbook: unmanagedPods,
      access,
      mode: 'auto',
      params: { namespaces: ['shop'] },
    });

    const restart = report.steps.find((s) => s.id === 'restart-unmanaged');
    const evicted = restart?.done.filter((d) => d.outcome === 'done').map((d) => d.target) ?? [];
    expect(evicted).toHaveLength(1);
    const [target] = evicted as [string];
    const [namespace, name] = target.split('/') as [string, string];
    // It really is gone, and nothing took its place.
    const left = await access.kube.list(RESOURCES.pods, { namespace, project: 'metadata' });
    expect(left.map((pod) => pod.metadata.name)).not.toContain(name);

    const verify = report.steps.find((s) => s.id === 'verify-replacements');
    expect(verify?.findings.map((f) => [f.code, f.target, f.severity])).toEqual([
      ['REPLACEMENT_MISSING', target, 'warning'],
    ]);
    expect(verify?.summary).toMatch(/^CiliumEndpoint on 0 of 1 replacement/);
    expect(report.verdict).toBe('degraded');
  }, 60_000);
});
