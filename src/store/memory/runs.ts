import { runOrderKey } from '../run-order.ts';
import type { RunExpectation, RunRecord, RunStore } from '../types.ts';

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

export function memoryRuns(): RunStore {
  const records = new Map<string, RunRecord>();
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
    async list({ cluster, limit } = {}) {
      const newestFirst = [...records.values()]
        .filter((record) => cluster === undefined || record.cluster === cluster)
        .sort((a, b) => newerFirst(runOrderKey(a), runOrderKey(b)));
      return newestFirst
        .slice(0, limit === undefined ? undefined : Math.max(0, limit))
        .map((r) => structuredClone(r));
    },
  };
}
