import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { parseJsonField, parseWith, Timestamp } from '../../../src/triggers/validate.ts';
import { triggerErrorOf } from './fixtures.ts';

describe('parseWith', () => {
  const Schema = z.object({ items: z.array(z.object({ tags: z.record(z.string(), z.string()) })) });

  it('returns the parsed value', () => {
    expect(parseWith(Schema, { items: [{ tags: { a: 'b' } }], extra: 1 })).toEqual({
      items: [{ tags: { a: 'b' } }],
    });
  });

  it('names a nested field with indexes and dots', () => {
    expect(triggerErrorOf(() => parseWith(Schema, { items: [{ tags: { a: 1 } }] })).message).toBe(
      'items[0].tags.a: expected string, got number',
    );
  });

  it('calls the whole body "payload"', () => {
    expect(triggerErrorOf(() => parseWith(Schema, null)).message).toBe('payload: expected object, got null');
  });

  it('puts a decoded field in front of the path', () => {
    const error = triggerErrorOf(() => parseWith(Schema, { items: 'x' }, 'Records[0].Sns.Message'));
    expect(error.field).toBe('Records[0].Sns.Message.items');
    expect(error.message).toBe('Records[0].Sns.Message.items: expected array, got string');
  });

  it('shortens a long wrong value', () => {
    const error = triggerErrorOf(() => parseWith(z.literal('4'), 'x'.repeat(100)));
    expect(error.message).toBe(`payload: expected "4", got "${'x'.repeat(36)}...`);
  });
});

describe('parseJsonField', () => {
  it('decodes JSON and names the field when it is not', () => {
    expect(parseJsonField('{"a":1}', 'Message')).toEqual({ a: 1 });
    expect(triggerErrorOf(() => parseJsonField('ALARM', 'Message')).message).toBe(
      'Message: expected a JSON document in this string',
    );
  });
});

describe('Timestamp', () => {
  it.each([
    ['2019-10-02T17:04:40.989+0000', '2019-10-02T17:04:40.989Z'],
    ['2015-10-08T16:53:06Z', '2015-10-08T16:53:06.000Z'],
    ['2018-08-03T09:52:26.739266876+02:00', '2018-08-03T07:52:26.739Z'],
  ])('normalizes %s to %s', (text, iso) => {
    expect(Timestamp.parse(text)).toBe(iso);
  });

  it.each(['yesterday', '2019-10-02', '2019-13-45T99:00:00Z'])('rejects %s', (text) => {
    expect(Timestamp.safeParse(text).success).toBe(false);
  });
});
