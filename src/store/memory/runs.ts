import { runOrderKey } from '../run-order.ts';
import { collectPages } from '../run-pages.ts';
import type { RunExpectation, RunPageQuery, RunRecord, RunStore } from '../types.ts';

/** Plain string order, not locale order: the same order DynamoDB gives its sort keys. */
function newerFirst(a: string, b: string): number {
  if (a === b) return 0;
  return a > b ? -1 : 1;
}

/** Whether a stored record is as a conditional write expects: the same test DynamoDB's condition makes. */
export function meets(record: RunRecord | undefined, expected: RunExpectation): boolean {
  if (!record || !expected.status.includes(record.status)) return false;
  if (expected.jobId !== undefined && record.jobId !== expected.jobId) return false;
  return expected.owner === undefined || record.owner === expected.owner;
}

/** The DynamoDB adapter's key condition (cluster, since, after) and filter (runbook, verdict, source) in one test. */
function inPage(record: RunRecord, query: RunPageQuery): boolean {
  const key = runOrderKey(record);
  return (
    (query.cluster === undefined || record.cluster === query.cluster) &&
    (query.runbook === undefined || record.runbook === query.runbook) &&
    (query.verdict === undefined || record.verdict === query.verdict) &&
    (query.source === undefined || record.source === query.source) &&
    (query.since === undefined || key >= query.since) &&
    (query.after === undefined || key < query.after)
  );
}

export function memoryRuns(records = new Map<string, RunRecord>()): RunStore {
  const page: RunStore['page'] = async (query) => {
    const newestFirst = [...records.values()]
      .filter((record) => inPage(record, query))
      .sort((a, b) => newerFirst(runOrderKey(a), runOrderKey(b)));
    const runs = newestFirst.slice(0, Math.max(0, query.limit)).map((r) => structuredClone(r));
    const last = runs.at(-1);
    return last && newestFirst.length > runs.length ? { runs, next: runOrderKey(last) } : { runs };
  };
  // Copies in and out, so a caller changing a record it holds does not rewrite the audit.
  return {
    async put(record) {
      records.set(record.runId, structuredClone(record));
    },
    async create(record) {
      if (records.has(record.runId)) return false;
      records.set(record.runId, structuredClone(record));
      return true;
    },
    // Check and write in one synchronous turn, as DynamoDB checks a condition with its write.
    async advance(record, expected) {
      if (!meets(records.get(record.runId), expected)) return false;
      records.set(record.runId, structuredClone(record));
      return true;
    },
    async get(runId) {
      const record = records.get(runId);
      return record && structuredClone(record);
    },
    list: ({ cluster, limit } = {}) =>
      collectPages((after, want) => page({ cluster, after, limit: want }), limit),
    page,
  };
}
