import { RUNBOOK_CATALOG } from '../../../runbooks/catalog.ts';
import type { AppPorts } from '../../../src/app/ports.ts';
import { SILENT } from '../../../src/engine/run.ts';
import { RUNBOOK_IDS, testConfig } from '../../functions/harness.ts';
import { counterIds } from '../routing/fixtures.ts';

/**
 * The app's ports as its tests build them: the harness's config, the built-in runbooks, the wall
 * clock, ids job-1, job-2, … and a silent log; the store, queue and chat are each test's own, and
 * anything else may be replaced.
 */
export function testPorts(parts: Pick<AppPorts, 'store' | 'queue' | 'chat'> & Partial<AppPorts>): AppPorts {
  return {
    config: testConfig(),
    runbookIds: RUNBOOK_IDS,
    runbookInfo: RUNBOOK_CATALOG,
    defaultChannel: '#cilium-responder',
    now: () => new Date(),
    newId: counterIds(),
    log: SILENT,
    ...parts,
  };
}
