import * as z from 'zod';
import type { Verdict } from '../engine/types.ts';
import { VERDICT_WORD } from '../report/summary.ts';
import { cursorPosition } from '../store/run-order.ts';
import { MAX_PAGE } from '../store/run-pages.ts';
import type { RunPageQuery } from '../store/types.ts';
import { TRIGGER_SOURCES } from '../triggers/types.ts';
import { firstIssue } from '../validation/issues.ts';
import { TriggerError } from '../validation/trigger-error.ts';

/**
 * What a reader of the audit trail may ask for (the operator API's `GET /runs`, `history`): the
 * filters, a page size and the cursor of the page before. Checked here once for every entry, so a
 * bad value is refused the same way, naming its field.
 */

const VERDICTS = Object.keys(VERDICT_WORD) as [Verdict, ...Verdict[]];
/** `30m`, `24h`, `7d`: back from now. */
const DURATION = /^(\d{1,6})([mhd])$/;
const UNIT_MS = { m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/**
 * A query as it comes (a URL's query strings, a command's options, a caller's values). Built on the
 * first query: most cold starts (webhooks, Slack) never read the audit trail.
 */
function historyQuerySchema() {
  const since = z
    .string()
    .refine(
      (text) => DURATION.test(text) || z.iso.datetime({ offset: true }).safeParse(text).success,
      'expected a time such as 2026-11-21T09:00:00Z, or how far back: 30m, 24h, 7d',
    );
  return z.strictObject({
    cluster: z.string().min(1).optional(),
    // Runbook ids are lowercase words and dashes (sdk/rules.ts).
    runbook: z
      .string()
      .regex(/^[a-z0-9][a-z0-9-]*$/, 'expected a runbook id such as unmanaged-pods')
      .optional(),
    verdict: z.enum(VERDICTS, { error: `expected one of ${VERDICTS.join(', ')}` }).optional(),
    source: z.enum(TRIGGER_SOURCES, { error: `expected one of ${TRIGGER_SOURCES.join(', ')}` }).optional(),
    since: since.optional(),
    limit: z.coerce.number().int().min(1).max(MAX_PAGE).default(50),
    next: z.string().optional(),
  });
}
let schema: ReturnType<typeof historyQuerySchema> | undefined;

export type HistoryQuery = z.input<ReturnType<typeof historyQuerySchema>>;

/** The query checked, `since` as an ISO time and the cursor as its position; throws naming the first bad field. */
export function parseHistoryQuery(raw: HistoryQuery, now: Date): RunPageQuery {
  schema ??= historyQuerySchema();
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const { field, problem } = firstIssue(parsed.error, { root: 'query' });
    const keys = Object.keys(schema.shape).join(', ');
    throw new TriggerError(field, problem === 'unknown key' ? `unknown key (the keys: ${keys})` : problem);
  }
  const { next, since: from, ...query } = parsed.data;
  const after = next === undefined ? undefined : cursorPosition(next);
  if (next !== undefined && after === undefined)
    throw new TriggerError(
      'next',
      'not a cursor this server gave: pass `next` from the answer before, unchanged',
    );
  return {
    ...query,
    ...(from === undefined ? {} : { since: sinceTime(from, now) }),
    ...(after ? { after } : {}),
  };
}

/** `since` as the ISO time it names: a duration counts back from `now`. */
function sinceTime(text: string, now: Date): string {
  const duration = DURATION.exec(text);
  if (!duration) return new Date(text).toISOString();
  return new Date(
    now.getTime() - Number(duration[1]) * UNIT_MS[duration[2] as keyof typeof UNIT_MS],
  ).toISOString();
}
