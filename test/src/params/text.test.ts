import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { paramsFromText } from '../../../src/params/text.ts';

const schema = z.strictObject({
  maxNotReady: z.int().min(0).optional(),
  ratio: z.number().optional(),
  strict: z.boolean().optional(),
  nodes: z.array(z.string()).optional(),
  ports: z.array(z.int()).optional(),
  level: z.enum(['warn', 'fail']).optional(),
  retries: z.literal(3).optional(),
  timeout: z.int().nullable().optional(),
  name: z.string().optional(),
  aws: z.object({ region: z.string(), attempts: z.int() }).optional(),
});

describe('params typed as text, read as the schema wants them', () => {
  it('reads numbers, integers, booleans, lists, enum values and nested keys', () => {
    const read = paramsFromText(schema, {
      maxNotReady: '1',
      ratio: ' 0.5 ',
      strict: 'true',
      nodes: 'a, b,c',
      ports: '80,443',
      level: 'fail',
      retries: '3',
      timeout: '30',
      name: '42',
      aws: { region: 'eu-west-1', attempts: '2' },
    });
    expect(read).toEqual({
      maxNotReady: 1,
      ratio: 0.5,
      strict: true,
      nodes: ['a', 'b', 'c'],
      ports: [80, 443],
      level: 'fail',
      retries: 3,
      timeout: 30,
      name: '42',
      aws: { region: 'eu-west-1', attempts: 2 },
    });
    expect(schema.safeParse(read).success).toBe(true);
  });

  it('reads false, and nothing after = as an empty list', () => {
    expect(paramsFromText(schema, { strict: 'false', nodes: '' })).toEqual({ strict: false, nodes: [] });
  });

  it('leaves text that is not the type as text, so the schema refuses it by name', () => {
    const read = paramsFromText(schema, { maxNotReady: 'many', ratio: '', strict: 'yes', level: 'loud' });
    expect(read).toEqual({ maxNotReady: 'many', ratio: '', strict: 'yes', level: 'loud' });
    const parsed = schema.safeParse(read);
    expect(parsed.error?.issues.map((issue) => issue.path.join('.'))).toEqual([
      'maxNotReady',
      'ratio',
      'strict',
      'level',
    ]);
  });

  it("passes typed values (a config file's) through, and keys the schema does not know", () => {
    const typed = { maxNotReady: 2, nodes: ['a'], strict: false, unknown: '7' };
    expect(paramsFromText(schema, typed)).toEqual(typed);
  });
});
