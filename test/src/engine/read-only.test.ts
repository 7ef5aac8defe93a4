import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { outcome } from '../../../src/engine/outcome.ts';
import { runRunbook } from '../../../src/engine/run.ts';
import type { Runbook, StepContext } from '../../../src/engine/types.ts';
import { type SimUnderTest, startScenario } from '../../helpers/sim-access.ts';

/**
 * Steps read; only the actuator writes. A step that calls evict or delete on its cluster handle
 * does not compile (`npm run typecheck` fails on an unused @ts-expect-error), and at run time
 * the handle it gets has no such methods either.
 */
function careless(ctx: StepContext) {
  return {
    // @ts-expect-error steps have no evict: evictions go through ctx.actuator.evictPod
    evict: () => ctx.kube.evict('shop', 'web-1', { uid: 'u' }),
    // @ts-expect-error steps have no deletePod: agent restarts go through ctx.actuator.restartAgent
    deletePod: () => ctx.kube.deletePod('kube-system', 'cilium-x', 'u'),
  };
}

let current: SimUnderTest;
beforeAll(async () => {
  current = await startScenario(['healthy']);
});
afterAll(() => current.sim.close());

describe("a step's cluster handle", () => {
  it('has no write methods at run time, only reads and agent exec', async () => {
    let seen: Record<string, unknown> = {};
    const book: Runbook = {
      id: 'look',
      title: 'Look',
      summary: 'looks at the handle a step gets',
      doc: 'runbooks/look/README.md',
      params: z.looseObject({}),
      answers: [],
      newState: () => ({}),
      steps: [
        {
          id: 'look',
          title: 'Look',
          writes: false,
          run: async (ctx) => {
            seen = { ...ctx.kube };
            expect(() => careless(ctx).evict()).toThrow(TypeError);
            expect(() => careless(ctx).deletePod()).toThrow(TypeError);
            return outcome('pass', 'looked');
          },
        },
      ],
    };
    const report = await runRunbook({ runbook: book, access: current.access, mode: 'auto' });
    expect(report.steps[0]?.status).toBe('pass');
    expect(Object.keys(seen).sort()).toEqual(['clusterName', 'exec', 'get', 'list', 'pages']);
  });
});
