import { describe, expect, it } from 'vitest';
import { count, formatAge, listSome } from '../../../runbooks/unmanaged-pods/wording.ts';

describe('wording', () => {
  it.each([
    [45, '45s'],
    [119, '119s'],
    [600, '10m'],
    [7_200, '2h'],
    [200_000, '2d'],
  ])('formats %d seconds as %s', (seconds, text) => {
    expect(formatAge(seconds)).toBe(text);
  });

  it('names a few and counts the rest', () => {
    expect(listSome(['a', 'b'])).toBe('a, b');
    expect(listSome(['a', 'b', 'c', 'd'], 2)).toBe('a, b and 2 more');
  });

  it('pluralises', () => {
    expect(count(1, 'pod')).toBe('1 pod');
    expect(count(3, 'pod')).toBe('3 pods');
  });
});
