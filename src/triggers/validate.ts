import { z } from 'zod';
import { TriggerError } from './errors.ts';

/** `alerts[0].labels`, or `base` followed by the path when the value sat inside a decoded string field. */
function fieldPath(path: readonly PropertyKey[], base: string): string {
  let field = base;
  for (const segment of path) {
    if (typeof segment === 'number') field += `[${segment}]`;
    else field += field ? `.${String(segment)}` : String(segment);
  }
  return field || 'payload';
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  return Array.isArray(value) ? 'array' : typeof value;
}

function shown(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 40 ? `${text.slice(0, 37)}...` : text;
}

function problemOf(issue: z.core.$ZodIssue): string {
  const mismatch = (expected: string, got: string) =>
    issue.input === undefined ? `missing (expected ${expected})` : `expected ${expected}, got ${got}`;
  switch (issue.code) {
    case 'invalid_type':
      // zod says "record" for z.record; the sender wrote a JSON object.
      return mismatch(issue.expected === 'record' ? 'object' : issue.expected, kindOf(issue.input));
    case 'invalid_value':
      return mismatch(issue.values.map((value) => JSON.stringify(value)).join(' or '), shown(issue.input));
    default:
      // Every other check in these schemas carries its own message.
      return issue.message;
  }
}

/**
 * Validates `input` with `schema`, or throws a TriggerError naming the first bad field. `base` is
 * the field a nested document was decoded from (`Records[0].Sns.Message`), so paths stay whole.
 */
export function parseWith<S extends z.ZodType>(schema: S, input: unknown, base = ''): z.output<S> {
  const result = schema.safeParse(input, { reportInput: true });
  if (result.success) return result.data;
  // A failed parse always reports at least one issue; the first is the one to fix first.
  const issue = result.error.issues[0] as z.core.$ZodIssue;
  throw new TriggerError(fieldPath(issue.path, base), problemOf(issue));
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
