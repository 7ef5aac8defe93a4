import * as z from 'zod';
import { firstIssue } from '../validation/issues.ts';
import { TriggerError } from '../validation/trigger-error.ts';

/**
 * Validates `input` with `schema`, or throws a TriggerError naming the first bad field. `base` is
 * the field a nested document was decoded from (`Records[0].Sns.Message`), so paths stay whole.
 */
export function parseWith<S extends z.ZodType>(schema: S, input: unknown, base = ''): z.output<S> {
  const result = schema.safeParse(input, { reportInput: true });
  if (result.success) return result.data;
  const { field, problem } = firstIssue(result.error, { base, root: 'payload' });
  throw new TriggerError(field, problem);
}

/** Decodes a field whose value is a JSON document in a string (SNS `Message`, Slack `payload`). */
export function parseJsonField(text: string, field: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new TriggerError(field, 'expected a JSON document in this string');
  }
}

/** A string field that must say something (an id, a name). */
export const NonEmpty = z.string().min(1, 'must not be empty');

/**
 * An ISO-8601 timestamp (AWS writes `+0000` offsets), normalized to UTC milliseconds so the same
 * instant always makes the same delivery key, however it was written.
 */
export const Timestamp = z
  .string()
  .refine((text) => /^\d{4}-\d\d-\d\dT/.test(text) && !Number.isNaN(Date.parse(text)), {
    message: 'expected an ISO-8601 timestamp',
  })
  .transform((text) => new Date(text).toISOString());

/** Slack's response_url: where results go, so only https. */
export const HttpsUrl = z.url({ protocol: /^https$/, error: 'expected an https URL' });
