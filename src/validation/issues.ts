import type { z } from 'zod';

/**
 * The one way the responder words a zod failure: `<field>: <problem>`, the field as the sender
 * wrote it and the problem in plain words (`expected string, got number`, `missing (expected
 * object)`), so every error that names bad input reads the same wherever it comes from.
 */

export interface IssueText {
  field: string;
  problem: string;
  /** Where in the input, as zod found it (the config loader turns it into a line). */
  path: PropertyKey[];
}

export interface FieldStyle {
  /** The field a nested document was decoded from (`Records[0].Sns.Message`), so paths stay whole. */
  base?: string;
  /** What to call the value itself when the path is empty. Default `(root)`. */
  root?: string;
  /** `alerts[0].labels` (JSON payloads, the default) or `alerts.0.labels` (YAML documents). */
  indices?: 'brackets' | 'dotted';
}

export function fieldOf(path: readonly PropertyKey[], style: FieldStyle = {}): string {
  let field = style.base ?? '';
  for (const segment of path) {
    if (typeof segment === 'number' && style.indices !== 'dotted') field += `[${segment}]`;
    else field += field ? `.${String(segment)}` : String(segment);
  }
  return field || (style.root ?? '(root)');
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  return Array.isArray(value) ? 'array' : typeof value;
}

function shown(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 40 ? `${text.slice(0, 37)}...` : text;
}

/**
 * The problem in plain words. A schema's own wording wins; zod's generic type and value messages
 * become what was expected and what came (when the parse reported its input).
 */
export function problemOf(issue: z.core.$ZodIssue): string {
  // zod's own wording starts "Invalid input" or "Invalid option"; a schema's wording does not.
  if (!/^Invalid (input|option)/.test(issue.message) || !('input' in issue)) return issue.message;
  const mismatch = (expected: string, got: string) =>
    issue.input === undefined ? `missing (expected ${expected})` : `expected ${expected}, got ${got}`;
  switch (issue.code) {
    case 'invalid_type':
      // zod says "record" for z.record; the sender wrote a JSON object.
      return mismatch(issue.expected === 'record' ? 'object' : issue.expected, kindOf(issue.input));
    case 'invalid_value':
      return mismatch(issue.values.map((value) => JSON.stringify(value)).join(' or '), shown(issue.input));
    default:
      // Every other check carries its own message.
      return issue.message;
  }
}

/** Each issue, worded; an unknown key is named at its own path. */
export function issuesOf(error: z.ZodError, style: FieldStyle = {}): IssueText[] {
  return error.issues.flatMap((issue) =>
    issue.code === 'unrecognized_keys'
      ? issue.keys.map((key) => {
          const path = [...issue.path, key];
          return { field: fieldOf(path, style), problem: 'unknown key', path };
        })
      : [{ field: fieldOf(issue.path, style), problem: problemOf(issue), path: issue.path }],
  );
}

/** The first issue: the one to fix first. A failed parse always has one. */
export function firstIssue(error: z.ZodError, style: FieldStyle = {}): IssueText {
  return issuesOf(error, style)[0] ?? { field: fieldOf([], style), problem: 'invalid', path: [] };
}

export const issueLine = ({ field, problem }: IssueText): string => `${field}: ${problem}`;
