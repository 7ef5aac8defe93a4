import { describe, expect, it } from 'vitest';
import { RUNBOOK_CATALOG, RUNBOOK_IDS } from '../../runbooks/catalog.ts';
import { RUNBOOKS } from '../../runbooks/index.ts';

describe('the runbook catalog', () => {
  it('lists exactly the registry, in its order (the admitting functions route by it)', () => {
    expect(RUNBOOKS.map((runbook) => runbook.id)).toEqual([...RUNBOOK_IDS]);
  });

  it("says each runbook's title, whether any of its steps writes, and its params schema, as the registry does", () => {
    expect(
      RUNBOOKS.map((runbook) => ({
        id: runbook.id,
        title: runbook.title,
        writes: runbook.steps.some((step) => step.writes),
        params: runbook.params,
      })),
    ).toEqual(RUNBOOK_CATALOG);
  });

  it('every runbook has its doc at runbooks/<id>/README.md and a fresh state per run', async () => {
    const { existsSync } = await import('node:fs');
    for (const runbook of RUNBOOKS) {
      expect(runbook.doc).toBe(`runbooks/${runbook.id}/README.md`);
      expect(existsSync(runbook.doc)).toBe(true);
      expect(runbook.newState()).not.toBe(runbook.newState());
    }
  });
});
