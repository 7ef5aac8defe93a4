import { describe, expect, it } from 'vitest';
import { selectorMatches } from '../../../sim/scenarios/selector.ts';

describe('selectorMatches', () => {
  const labels = { app: 'web', tier: 'front' };

  it('matches matchLabels exactly', () => {
    expect(selectorMatches({ matchLabels: { app: 'web' } }, labels)).toBe(true);
    expect(selectorMatches({ matchLabels: { app: 'db' } }, labels)).toBe(false);
    expect(selectorMatches({ matchLabels: { app: 'web', zone: 'a' } }, labels)).toBe(false);
  });

  it.each([
    [{ key: 'app', operator: 'In' as const, values: ['web', 'db'] }, true],
    [{ key: 'app', operator: 'In' as const, values: ['db'] }, false],
    [{ key: 'app', operator: 'NotIn' as const, values: ['db'] }, true],
    [{ key: 'zone', operator: 'NotIn' as const, values: ['a'] }, true],
    [{ key: 'app', operator: 'NotIn' as const, values: ['web'] }, false],
    [{ key: 'tier', operator: 'Exists' as const }, true],
    [{ key: 'zone', operator: 'Exists' as const }, false],
    [{ key: 'zone', operator: 'DoesNotExist' as const }, true],
    [{ key: 'app', operator: 'DoesNotExist' as const }, false],
  ])('evaluates %o as %s', (requirement, expected) => {
    expect(selectorMatches({ matchExpressions: [requirement] }, labels)).toBe(expected);
  });

  it('ANDs matchLabels and every expression', () => {
    const selector = {
      matchLabels: { app: 'web' },
      matchExpressions: [{ key: 'tier', operator: 'In' as const, values: ['back'] }],
    };
    expect(selectorMatches(selector, labels)).toBe(false);
  });

  it('matches nothing for a missing selector, everything for an empty one, nothing for an invalid one', () => {
    expect(selectorMatches(undefined, labels)).toBe(false);
    expect(selectorMatches(null, labels)).toBe(false);
    expect(selectorMatches({}, labels)).toBe(true);
    expect(selectorMatches({ matchExpressions: [{ key: 'app', operator: 'In', values: [] }] }, labels)).toBe(
      false,
    );
    expect(
      selectorMatches({ matchExpressions: [{ key: 'app', operator: 'Exists', values: ['web'] }] }, labels),
    ).toBe(false);
  });
});
