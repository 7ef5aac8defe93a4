import { describe, expect, it } from 'vitest';
import { splitByAge } from '../../../runbooks/unmanaged-pods/scan.ts';
import { facts } from './fixtures.ts';

const NOW = new Date('2025-01-01T00:01:00Z');

describe('splitByAge', () => {
  it('splits pods without an endpoint at the grace period, sorted by namespace/name', () => {
    const old = facts({ name: 'web-b', uid: 'b' });
    const exactlyGrace = facts({ name: 'web-a', uid: 'a', startedAt: '2025-01-01T00:00:30Z' });
    const young = facts({ name: 'web-c', uid: 'c', startedAt: '2025-01-01T00:00:45Z' });
    const { unmanaged, young: within } = splitByAge([old, young, exactlyGrace], NOW, 30);
    expect(unmanaged.map((pod) => [pod.name, pod.ageSeconds])).toEqual([
      ['web-a', 30],
      ['web-b', 60],
    ]);
    expect(within.map((pod) => [pod.name, pod.ageSeconds])).toEqual([['web-c', 15]]);
  });

  it('ignores hostNetwork pods, pods being deleted, and pods that have not started', () => {
    const pods = [
      facts({ hostNetwork: true }),
      facts({ terminating: true }),
      facts({ startedAt: undefined }),
    ];
    expect(splitByAge(pods, NOW, 30)).toEqual({ unmanaged: [], young: [] });
  });
});
