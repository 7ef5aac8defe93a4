import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { PodRef, UnmanagedPodsPlan } from '../../../sim/scenarios/plan.ts';
import { outcome } from '../../../src/engine/outcome.ts';
import { runRunbook } from '../../../src/engine/run.ts';
import type { Runbook } from '../../../src/engine/types.ts';
import { type SimUnderTest, startScenario } from '../../helpers/sim-access.ts';

let current: SimUnderTest;
beforeEach(async () => {
  current = await startScenario(['unmanaged-pods']);
});
afterEach(() => current.sim.close());

describe('the report lists every write that happened, whatever ended the run', () => {
  it('a step the deadline cuts off after two evictions reports those two', async () => {
    const pods = (current.plan.unmanagedPods as UnmanagedPodsPlan).evictable
      .filter((pod) => pod.name.startsWith('checkout-') || pod.name.startsWith('otel-agent-'))
      .slice(0, 2) as PodRef[];
    expect(pods).toHaveLength(2);
    const book: Runbook<Record<string, unknown>> = {
      id: 'cut-off',
      title: 'Cut off',
      summary: 'evicts, then hangs past the deadline',
      doc: 'runbooks/cut-off/README.md',
      params: z.looseObject({}),
      answers: [],
      newState: () => ({}),
      steps: [
        {
          id: 'restart',
          title: 'Restart',
          writes: true,
          run: async (ctx) => {
            for (const pod of pods) await ctx.actuator.evictPod(pod, 'no CiliumEndpoint');
            await sleep(5_000);
            return outcome('pass', 'never reached');
          },
        },
      ],
    };

    const report = await runRunbook({
      runbook: book,
      access: current.access,
      mode: 'auto',
      deadlineMs: 1_500,
    });

    const [restart] = report.steps;
    expect(restart?.summary).toMatch(/deadline passed/);
    expect(restart?.done.map((d) => [d.target, d.outcome])).toEqual(
      pods.map((pod) => [`${pod.namespace}/${pod.name}`, 'done']),
    );
    expect(report.verdict).toBe('failed');
  });
});
