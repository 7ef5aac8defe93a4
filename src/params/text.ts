import * as z from 'zod';

/** The part of a param's JSON Schema that says how its text reads. */
export interface ParamShape {
  type?: string;
  properties?: Record<string, ParamShape>;
  items?: ParamShape;
  enum?: unknown[];
  const?: unknown;
  anyOf?: ParamShape[];
}

const shapes = new WeakMap<z.ZodType, ParamShape>();

/** A params schema as JSON Schema (its input side): what `--help` prints and what text is read as. */
export function paramShape(schema: z.ZodType): ParamShape {
  let shape = shapes.get(schema);
  if (!shape) {
    shape = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as ParamShape;
    shapes.set(schema, shape);
  }
  return shape;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** `a, b` → `['a', 'b']`; nothing after the `=` is an empty list (the schema says if one is allowed). */
const listOf = (text: string) => (text.trim() === '' ? [] : text.split(',').map((item) => item.trim()));

/** One text value as `shape` wants it; text that does not read as that type stays text, for the schema to refuse by name. */
function readText(text: string, shape: ParamShape): unknown {
  if (shape.anyOf) {
    // The first branch that reads the text as something else (a nullable number, a number or a list).
    for (const branch of shape.anyOf) {
      const read = readText(text, branch);
      if (read !== text) return read;
    }
    return text;
  }
  const options = shape.enum ?? (shape.const !== undefined ? [shape.const] : undefined);
  if (options) return options.find((option) => String(option) === text) ?? text;
  switch (shape.type) {
    case 'number':
    case 'integer': {
      const number = Number(text.trim());
      return text.trim() !== '' && Number.isFinite(number) ? number : text;
    }
    case 'boolean':
      return text === 'true' ? true : text === 'false' ? false : text;
    case 'array':
      return listOf(text).map((item) => readText(item, shape.items ?? {}));
    default:
      return text;
  }
}

function read(value: unknown, shape: ParamShape): unknown {
  if (typeof value === 'string') return readText(value, shape);
  if (Array.isArray(value) && shape.items) return value.map((item) => read(item, shape.items as ParamShape));
  if (isRecord(value) && shape.properties) {
    const properties = shape.properties;
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, properties[key] ? read(item, properties[key]) : item]),
    );
  }
  return value;
}

/**
 * Params typed as text (`--set key=value`, a Slack command) read as the runbook's schema wants
 * them: numbers, integers, `true`/`false`, comma-separated lists (of any of these) and enum
 * values; nested keys too (`aws.region`). Typed values (a config file's) pass through. One reading
 * for every runbook, built-in or a team's, so a schema says only what it accepts.
 */
export function paramsFromText(schema: z.ZodType, params: unknown): unknown {
  return read(params, paramShape(schema));
}
