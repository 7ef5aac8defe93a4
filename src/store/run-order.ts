import type { RunRecord } from './types.ts';

/**
 * Orders runs by when they were queued, then by id for runs queued in the same millisecond. ISO
 * timestamps have a fixed width, so comparing these strings compares the times; the DynamoDB
 * adapter uses the same string as its index sort key.
 */
export function runOrderKey(record: Pick<RunRecord, 'queuedAt' | 'runId'>): string {
  return `${record.queuedAt}#${record.runId}`;
}
