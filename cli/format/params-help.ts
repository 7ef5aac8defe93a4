import * as z from 'zod';
import { table } from './report.ts';

/** The part of a JSON Schema a param's help line reads. */
interface ParamSchema {
  type?: string;
  description?: string;
  default?: unknown;
  minimum?: number;
  maximum?: number;
  items?: ParamSchema;
}

/** Past this, a bound is "no limit" to a person: zod's safe-integer bounds. */
const UNBOUNDED = Number.MAX_SAFE_INTEGER;

function typeText(schema: ParamSchema): string {
  if (schema.type === 'array') return `list of ${typeText(schema.items ?? {})}s, comma-separated`;
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
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as {
    properties?: Record<string, ParamSchema>;
  };
  const params = Object.entries(json.properties ?? {});
  if (params.length === 0) return `\n${runbook} takes no params.\n`;
  const rows = params.map(([key, param]) => [
    `  ${key}`,
    typeText(param),
    `${param.description ?? ''}${param.default !== undefined ? ` (default: ${JSON.stringify(param.default)})` : ''}`,
  ]);
  return `\nParams of ${runbook} (--set key=value):\n${table(rows, 100).join('\n')}\n`;
}
