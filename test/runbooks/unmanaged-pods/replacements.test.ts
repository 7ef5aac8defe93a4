import { describe, expect, it } from 'vitest';
import { matchReplacements } from '../../../runbooks/unmanaged-pods/replacements.ts';
import { facts } from './fixtures.ts';

const DS = { kind: 'DaemonSet', name: 'log-shipper', uid: 'ds-1' };

describe('matchReplacements', () => {
  const evicted = facts({ name: 'web-1', uid: 'old' });
  const sibling = facts({ name: 'web-2', uid: 'sibling' });

  it('pairs an evicted pod with the new pod of its controller, not with siblings seen before', () => {
    const fresh = facts({ name: 'web-3', uid: 'new', node: 'node-2' });
    const matched = matchReplacements([evicted], [sibling, fresh], new Set(['old', 'sibling']));
    expect(matched.get('old')?.uid).toBe('new');
  });

  it('gives each new pod to one evicted pod only', () => {
    const second = facts({ name: 'web-2', uid: 'old-2' });
    const fresh = facts({ name: 'web-3', uid: 'new' });
    const matched = matchReplacements([evicted, second], [fresh], new Set(['old', 'old-2']));
    expect([...matched.keys()]).toEqual(['old']);
  });

  it('wants a DaemonSet replacement on the same node', () => {
    const gone = facts({ name: 'log-a', uid: 'old-ds', node: 'node-1', owner: DS });
    const elsewhere = facts({ name: 'log-b', uid: 'other', node: 'node-2', owner: DS });
    const here = facts({ name: 'log-c', uid: 'here', node: 'node-1', owner: DS });
    expect(matchReplacements([gone], [elsewhere], new Set(['old-ds'])).size).toBe(0);
    expect(matchReplacements([gone], [elsewhere, here], new Set(['old-ds'])).get('old-ds')?.uid).toBe('here');
  });

  it('skips pods being deleted and pods of other controllers', () => {
    const leaving = facts({ uid: 'leaving', terminating: true });
    const foreign = facts({ uid: 'foreign', owner: { kind: 'ReplicaSet', name: 'api-1', uid: 'rs-api' } });
    expect(matchReplacements([evicted], [leaving, foreign], new Set(['old'])).size).toBe(0);
  });
});
