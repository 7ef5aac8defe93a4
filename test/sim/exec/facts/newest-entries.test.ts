import { describe, expect, it } from 'vitest';
import { NewestEntries } from '../../../../sim/exec/facts/newest-entries.ts';

describe('NewestEntries', () => {
  it('keeps no more than its max however many keys are set, the newest ones', () => {
    const entries = new NewestEntries<number, string>(3);
    for (let key = 0; key < 10_000; key++) entries.set(key, `tree ${key}`);
    expect(entries.size).toBe(3);
    expect([9_997, 9_998, 9_999].map((key) => entries.get(key))).toEqual([
      'tree 9997',
      'tree 9998',
      'tree 9999',
    ]);
    expect(entries.get(9_996)).toBeUndefined();
  });

  it('counts a key set again as the newest', () => {
    const entries = new NewestEntries<string, number>(2);
    entries.set('a', 1);
    entries.set('b', 2);
    entries.set('a', 3);
    entries.set('c', 4);
    expect(entries.get('a')).toBe(3);
    expect(entries.get('b')).toBeUndefined();
    expect(entries.get('c')).toBe(4);
  });
});
