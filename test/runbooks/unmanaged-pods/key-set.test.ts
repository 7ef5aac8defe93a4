import { describe, expect, it } from 'vitest';
import { KeySet } from '../../../runbooks/unmanaged-pods/key-set.ts';

describe('KeySet', () => {
  it('answers for every key added and for none other, across growth', () => {
    const keys = new KeySet();
    for (let i = 0; i < 50_000; i++) keys.add(`team-${i % 97}/svc-${i}-7d9c6b5f4-x${i}`);
    expect(keys.size).toBe(50_000);
    for (let i = 0; i < 50_000; i++) expect(keys.has(`team-${i % 97}/svc-${i}-7d9c6b5f4-x${i}`)).toBe(true);
    let strangers = 0;
    for (let i = 50_000; i < 100_000; i++)
      if (keys.has(`team-${i % 97}/svc-${i}-7d9c6b5f4-x${i}`)) strangers++;
    expect(strangers).toBe(0);
    expect(keys.has('')).toBe(false);
  });

  it('counts a key added twice once', () => {
    const keys = new KeySet();
    keys.add('kube-system/coredns-1');
    keys.add('kube-system/coredns-1');
    keys.add('');
    expect(keys.size).toBe(2);
    expect(keys.has('')).toBe(true);
  });

  it('holds a million pod keys in 24 MiB at most', () => {
    const keys = new KeySet();
    for (let i = 0; i < 1_000_000; i++) keys.add(`team-${i % 4000}/svc-${i >> 5}-5f7b9c-${i}`);
    expect(keys.size).toBe(1_000_000);
    expect(keys.bytes / 2 ** 20).toBeLessThanOrEqual(24);
  });
});
