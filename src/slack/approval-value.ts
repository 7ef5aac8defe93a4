import * as z from 'zod';
import { firstIssue, issueLine } from '../validation/issues.ts';

/**
 * The `value` of the approve/reject buttons: the run to resume and the plan a person sees, as
 * `<action>:<target>` keys (the actuator's `actionKey`). The block_actions parser reads it back
 * with `parseApprovalValue`, so both sides agree on one format.
 */
export interface ApprovalValue {
  runId: string;
  approved: string[];
}

/** Slack's limit for a button's value. */
export const MAX_BUTTON_VALUE_CHARS = 2000;

const ACTION_KEY = /^[^:\s]+:\S+$/;

export const ApprovalValueSchema = z.lazy(() =>
  z
    .object({
      runId: z.string().min(1),
      approved: z.array(z.string().regex(ACTION_KEY, 'must be "<action>:<target>"')).min(1),
    })
    .strict(),
);

export function approvalValue(runId: string, approved: readonly string[]): string {
  return JSON.stringify({ runId, approved });
}

export type ParsedApprovalValue = { ok: true; value: ApprovalValue } | { ok: false; reason: string };

/** Reads a button value back; the reason names the field that is wrong. */
export function parseApprovalValue(text: string): ParsedApprovalValue {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, reason: 'approval value is not JSON' };
  }
  const parsed = ApprovalValueSchema.safeParse(json);
  if (!parsed.success)
    return { ok: false, reason: `approval value: ${issueLine(firstIssue(parsed.error, { root: 'value' }))}` };
  return { ok: true, value: parsed.data };
}
