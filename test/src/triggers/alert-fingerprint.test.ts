import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { alertFingerprint } from '../../../src/triggers/alert-fingerprint.ts';
import { fixtureJson } from './fixtures.ts';

/** prometheus/common's test vectors are decimal uint64s; Alertmanager prints them as `%016x`. */
const printed = (decimal: string) => BigInt(decimal).toString(16).padStart(16, '0');

/** Plain FNV-1a 64 over one byte string: what Go's hash/fnv sees when the labels are written out. */
function fnv1a64(bytes: Uint8Array): string {
  let hash = 0xcbf29ce484222325n;
  for (const byte of bytes) hash = BigInt.asUintN(64, (hash ^ BigInt(byte)) * 0x100000001b3n);
  return hash.toString(16).padStart(16, '0');
}

/** `name 0xff value 0xff` for each label, in the order given. */
function written(labels: [string, string][]): Uint8Array {
  const encoder = new TextEncoder();
  return new Uint8Array(
    labels.flatMap(([name, value]) => [...encoder.encode(name), 0xff, ...encoder.encode(value), 0xff]),
  );
}

describe('alertFingerprint', () => {
  it('equals the fingerprint a real Alertmanager printed for the same labels', () => {
    const webhook = fixtureJson<{ alerts: { labels: Record<string, string>; fingerprint: string }[] }>(
      'alertmanager-v4-with-fingerprint.json',
    );
    const [alert] = webhook.alerts;
    expect(alert?.fingerprint).toBe('fbab788ec4c1018b');
    expect(alertFingerprint(alert?.labels ?? {})).toBe('fbab788ec4c1018b');
  });

  it.each([
    // prometheus/common model/signature_test.go: TestMetricToFingerprint and its benchmarks.
    [{}, '14695981039346656037'],
    [{ name: 'garland, briggs', fear: 'love is not enough' }, '5799056148416392346'],
    [{ 'first-label': 'first-label-value' }, '5146282821936882169'],
    [{ 'first-label': 'first-label-value', 'second-label': 'second-label-value' }, '3195800080984914717'],
    [
      {
        'first-label': 'first-label-value',
        'second-label': 'second-label-value',
        'third-label': 'third-label-value',
      },
      '13843036195897128121',
    ],
  ])("matches prometheus/common's labelSetToFingerprint for %j", (labels, decimal) => {
    expect(alertFingerprint(labels)).toBe(printed(decimal));
  });

  it('is 16 lowercase hex digits and the same whatever order the labels come in', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.string()), (labels) => {
        const fingerprint = alertFingerprint(labels);
        expect(fingerprint).toMatch(/^[0-9a-f]{16}$/);
        expect(alertFingerprint(Object.fromEntries(Object.entries(labels).reverse()))).toBe(fingerprint);
      }),
    );
  });

  it('sorts names by their UTF-8 bytes, as Go does, not by UTF-16 code units', () => {
    // U+FF61 is EF BD A1 in UTF-8 and U+10000 is F0 90 80 80, but UTF-16 puts U+10000 (D800 DC00) first.
    const labels = { '\u{10000}': 'b', '\u{ff61}': 'a' };
    expect(alertFingerprint(labels)).toBe(
      fnv1a64(
        written([
          ['\u{ff61}', 'a'],
          ['\u{10000}', 'b'],
        ]),
      ),
    );
  });

  it('tells label sets apart by names and values both', () => {
    expect(alertFingerprint({ a: 'bc' })).not.toBe(alertFingerprint({ ab: 'c' }));
    expect(alertFingerprint({ a: 'b' })).not.toBe(alertFingerprint({ a: 'c' }));
  });
});
