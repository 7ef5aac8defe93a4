import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import type { CiliumFacade, ClusterAccess, KubeFacade } from '../../../src/cluster/types.ts';
import { outcome } from '../../../src/engine/outcome.ts';
import { runRunbook } from '../../../src/engine/run.ts';
import type { Runbook } from '../../../src/engine/types.ts';

const offline = {
  name: 'offline',
  kube: {} as KubeFacade,
  cilium: {} as CiliumFacade,
} satisfies ClusterAccess;

describe('a step that declares when it applies', () => {
  it('is skipped with its reason and not run, on state the earlier steps left', async () => {
    const run = vi.fn(async () => outcome('pass', 'ran'));
    const book: Runbook<Record<string, unknown>, { socketLb?: boolean }> = {
      id: 'conditional',
      title: 'Conditional',
      summary: 'a check that only applies with socket LB on',
      doc: 'runbooks/conditional/README.md',
      params: z.looseObject({}),
      answers: [],
      newState: () => ({}),
      steps: [
        {
          id: 'decide',
          title: 'Decide',
          writes: false,
          run: async (ctx) => {
            ctx.state.socketLb = false;
            return outcome('pass', 'socket LB is off');
          },
        },
        {
          id: 'hooks',
          title: 'Hooks',
          writes: false,
          when: async (ctx) => (ctx.state.socketLb ? undefined : 'socket LB is off: nothing to check'),
          run,
        },
      ],
    };
    const report = await runRunbook({ runbook: book, access: offline, mode: 'dry-run' });
    expect(report.steps.map((s) => [s.id, s.status, s.summary])).toEqual([
      ['decide', 'pass', 'socket LB is off'],
      ['hooks', 'skip', 'socket LB is off: nothing to check'],
    ]);
    expect(run).not.toHaveBeenCalled();
    expect(report.verdict).toBe('healthy');
  });
});
