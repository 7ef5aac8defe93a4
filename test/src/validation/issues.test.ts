import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { fieldOf, firstIssue, issueLine, issuesOf } from '../../../src/validation/issues.ts';

const Schema = z.strictObject({
  alerts: z.array(
    z.object({ status: z.enum(['firing', 'resolved']), labels: z.record(z.string(), z.string()) }),
  ),
  grace: z.number().int({ error: 'must be a whole number of seconds' }).optional(),
});

describe('one way to word a zod failure', () => {
  it('names the field as the sender wrote it, and says what was expected and what came', () => {
    const parsed = Schema.safeParse({ alerts: [{ status: 'open', labels: [] }] }, { reportInput: true });
    if (parsed.success) throw new Error('should not parse');
    expect(issuesOf(parsed.error).map(issueLine)).toEqual([
      'alerts[0].status: expected "firing" or "resolved", got "open"',
      'alerts[0].labels: expected object, got array',
    ]);
  });

  it("keeps a schema's own wording, and names each unknown key", () => {
    const parsed = Schema.safeParse({ alerts: [], grace: 1.5, extra: 1 });
    if (parsed.success) throw new Error('should not parse');
    expect(issuesOf(parsed.error).map(issueLine).sort()).toEqual([
      'extra: unknown key',
      'grace: must be a whole number of seconds',
    ]);
  });

  it('says "missing" for a field that is not there, and names the value itself when the path is empty', () => {
    const missing = Schema.safeParse({}, { reportInput: true });
    if (missing.success) throw new Error('should not parse');
    expect(issueLine(firstIssue(missing.error))).toBe('alerts: missing (expected array)');
    const root = z.string().safeParse(3, { reportInput: true });
    if (root.success) throw new Error('should not parse');
    expect(issueLine(firstIssue(root.error, { root: 'payload' }))).toBe(
      'payload: expected string, got number',
    );
  });

  it('writes paths with brackets for JSON, dots for YAML documents, under a base field', () => {
    expect(fieldOf(['alerts', 0, 'labels'])).toBe('alerts[0].labels');
    expect(fieldOf(['schedules', 0, 'expression'], { indices: 'dotted' })).toBe('schedules.0.expression');
    expect(fieldOf(['NewStateValue'], { base: 'Records[0].Sns.Message' })).toBe(
      'Records[0].Sns.Message.NewStateValue',
    );
  });
});
