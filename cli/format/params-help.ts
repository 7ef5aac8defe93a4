import type * as z from 'zod';
import { type ParamShape, paramShape } from '../../src/params/text.ts';
import { table } from './report.ts';

/** What a param's help line reads beside what its text is read as. */
interface ParamSchema extends ParamShape {
  description?: string;
  default?: unknown;
  minimum?: number;
  maximum?: number;
  items?: ParamSchema;
  anyOf?: ParamSchema[];
}

/** Past this, a bound is "no limit" to a person: zod's safe-integer bounds. */
const UNBOUNDED = Number.MAX_SAFE_INTEGER;

/** The type as the text after `=` is read (src/params/text.ts): the same JSON Schema, so the two agree. */
function typeText(schema: ParamSchema): string {
  if (schema.anyOf) return schema.anyOf.map(typeText).join(' or ');
  const options = schema.enum ?? (schema.const !== undefined ? [schema.const] : undefined);
  if (options) return `one of ${options.map(String).join(', ')}`;
  if (schema.type === 'boolean') return 'true or false';
  if (schema.type === 'array') return `list of ${typeText(schema.items ?? {})}s, comma-separated`;
  if (schema.type === 'object') return 'object: --set key.field=value';
  const { minimum, maximum } = schema;
  const range =
    minimum !== undefined && maximum !== undefined && maximum < UNBOUNDED
      ? ` ${minimum}-${maximum}`
      : minimum !== undefined && minimum > -UNBOUNDED
        ? ` >= ${minimum}`
        : '';
  return `${schema.type ?? 'value'}${range}`;
}

/**
 * A runbook's params for `run <runbook> --help`, read from its own zod schema (types, bounds,
 * defaults and the `.describe()` texts), so the help cannot drift from what the run accepts.
 */
export function paramsHelp(runbook: string, schema: z.ZodType): string {
  const params = Object.entries((paramShape(schema) as ParamSchema).properties ?? {}) as [
    string,
    ParamSchema,
  ][];
  if (params.length === 0) return `\n${runbook} takes no params.\n`;
  const rows = params.map(([key, param]) => [
    `  ${key}`,
    typeText(param),
    `${param.description ?? ''}${param.default !== undefined ? ` (default: ${JSON.stringify(param.default)})` : ''}`,
  ]);
  return `\nParams of ${runbook} (--set key=value; the text after = is read as the type shown):\n${table(rows, 100).join('\n')}\n`;
}
