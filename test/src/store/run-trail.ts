import pLimit from 'p-limit';
import type { RunFilter, RunRecord, StateStore } from '../../../src/store/index.ts';

/** What a listing of the audit trail must give, worked out from the runs themselves: the reference the paging tests compare with. */

/** The ids of `runs` that pass `filter`, newest queuedAt first, then the id in byte order, descending. */
export function expectedIds(runs: readonly RunRecord[], filter: RunFilter = {}): string[] {
  const key = (r: RunRecord) => `${r.queuedAt}#${r.runId}`;
  return runs
    .filter(
      (r) =>
        (filter.cluster === undefined || r.cluster === filter.cluster) &&
        (filter.runbook === undefined || r.runbook === filter.runbook) &&
        (filter.verdict === undefined || r.verdict === filter.verdict) &&
        (filter.source === undefined || r.source === filter.source) &&
        (filter.since === undefined || r.queuedAt >= filter.since),
    )
    .sort((a, b) => (key(a) === key(b) ? 0 : key(a) > key(b) ? -1 : 1))
    .map((r) => r.runId);
}

/** Puts every run, 16 at a time. */
export async function putAll(store: StateStore, runs: readonly RunRecord[]): Promise<void> {
  const limit = pLimit(16);
  await Promise.all(runs.map((record) => limit(() => store.runs.put(record))));
}
