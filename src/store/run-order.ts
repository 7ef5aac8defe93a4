import type { RunRecord } from './types.ts';

/**
 * Orders runs by when they were queued, then by id for runs queued in the same millisecond. ISO
 * timestamps have a fixed width, so comparing these strings compares the times; the DynamoDB
 * adapter uses the same string as its index sort key, and a page's `next` is one of them.
 */
export function runOrderKey(record: Pick<RunRecord, 'queuedAt' | 'runId'>): string {
  return `${record.queuedAt}#${record.runId}`;
}

/** A position as a client holds it: opaque and URL-safe, so nobody builds one by hand. */
export function runCursor(position: string): string {
  return Buffer.from(position, 'utf8').toString('base64url');
}

/** The position a cursor names; undefined when it is not one `runCursor` made. */
export function cursorPosition(cursor: string): string | undefined {
  if (!/^[\w-]+$/.test(cursor)) return undefined;
  const position = Buffer.from(cursor, 'base64url').toString('utf8');
  const wellFormed = /^\d{4}-\d\d-\d\dT[^#]+#./.test(position) && runCursor(position) === cursor;
  return wellFormed ? position : undefined;
}
