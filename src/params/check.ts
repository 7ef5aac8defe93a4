import type { z } from 'zod';
import { firstIssue } from '../validation/issues.ts';
import { TriggerError } from '../validation/trigger-error.ts';
import { paramsFromText } from './text.ts';

/** A runbook's params schema, as admission checks it: an object, so its keys can be listed. */
export type ParamsSchema = z.ZodObject;

/** The keys a runbook takes, for messages: `gracePeriodSeconds, namespaces` or `no parameters`. */
export function validKeys(schema: ParamsSchema): string {
  const keys = Object.keys(schema.shape);
  return keys.length > 0 ? `valid keys: ${keys.join(', ')}` : 'it takes no parameters';
}

/**
 * A parameter no runbook of the request takes, or a value its schema refuses: named by its key,
 * with the keys that are valid, so the sender can fix it at once. Nothing is queued.
 */
export class ParamsError extends TriggerError {
  constructor(key: string, problem: string) {
    super(key, problem);
    this.name = 'ParamsError';
  }
}

/**
 * The params read from their text as the runbook's own schema wants them (`paramsFromText`), or a
 * ParamsError when they do not pass that schema.
 */
export function checkParams(
  runbook: string,
  schema: ParamsSchema,
  params: Record<string, unknown>,
): Record<string, unknown> {
  const read = paramsFromText(schema, params) as Record<string, unknown>;
  const parsed = schema.safeParse(read);
  if (parsed.success) return read;
  const { field, problem, path } = firstIssue(parsed.error);
  // The key as the sender typed it (`namespaces`, not `namespaces[0]`).
  const key = path.length > 0 ? String(path[0]) : field;
  throw new ParamsError(key, `${problem} (${runbook}: ${validKeys(schema)})`);
}
