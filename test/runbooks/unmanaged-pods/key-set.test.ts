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

describe('KeySet at 100,000 nodes', () => {
  it("holds a 100,000-node cluster's 3.3 million pod uids in 32 MiB", () => {
    const keys = new KeySet();
    for (let i = 0; i < 3_300_000; i++)
      keys.add(`0b7e${i.toString(16).padStart(8, '0')}-4c1a-9f3e-000000000000`);
    expect(keys.size).toBe(3_300_000);
    expect(keys.bytes / 2 ** 20).toBeLessThanOrEqual(32);
    expect(keys.has('0b7e00000000-4c1a-9f3e-000000000000')).toBe(true);
    expect(keys.has('0b7effffffff-4c1a-9f3e-000000000000')).toBe(false);
    // Three million adds take a few seconds on a quiet machine, many more on a shared one.
  }, 120_000);
});
