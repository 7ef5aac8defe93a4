import { describe, expect, it } from 'vitest';
import { R } from '../../sim/cluster.ts';
import type { KubeObject } from '../../sim/objects.ts';
import type { ApiError } from '../../sim/status.ts';
import { Store } from '../../sim/store.ts';

function pod(namespace: string, name: string): KubeObject {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace }, spec: { containers: [] } };
}

function pageAll(store: Store, limit: number, between?: (page: number) => void): string[] {
  const names: string[] = [];
  let page = store.list(R.pods, { limit });
  for (let n = 0; ; n++) {
    names.push(...page.items.map((item) => `${item.metadata.namespace}/${item.metadata.name}`));
    if (!page.nextKey) return names;
    between?.(n);
    page = store.list(R.pods, { limit, revision: page.revision, after: page.nextKey });
  }
}

describe('Store', () => {
  it('assigns uid, resourceVersion and creationTimestamp, and freezes what it stores', () => {
    const store = new Store({ now: () => new Date('2026-01-02T03:04:05.678Z') });
    const created = store.create(R.pods, pod('default', 'a'));
    expect(created.metadata.uid).toMatch(/^[0-9a-f-]{36}$/);
    expect(created.metadata.resourceVersion).toBe(String(store.revision));
    expect(created.metadata.creationTimestamp).toBe('2026-01-02T03:04:05Z');
    expect(Object.isFrozen(created.metadata)).toBe(true);
  });

  it('refuses a second object with the same name', () => {
    const store = new Store();
    store.create(R.pods, pod('default', 'a'));
    expect(() => store.create(R.pods, pod('default', 'a'))).toThrow('pods "a" already exists');
  });

  it('pages every object exactly once, in key order, from the snapshot of the first page', () => {
    const store = new Store();
    for (let i = 0; i < 2500; i++) store.create(R.pods, pod(`ns-${i % 7}`, `pod-${i}`));
    const expected = store
      .list(R.pods)
      .items.map((item) => `${item.metadata.namespace}/${item.metadata.name}`);
    const seen = pageAll(store, 100, (n) => {
      // Writes between pages must not show up in (or disturb) a list that started earlier.
      store.create(R.pods, pod('ns-0', `late-${n}`));
      store.delete(R.pods, `ns-${n % 7}`, `pod-${n * 7 + (n % 7)}`);
    });
    expect(seen).toEqual(expected);
    expect(new Set(seen).size).toBe(2500);
    expect([...seen].sort()).toEqual(seen);
  });

  it('lists one namespace only', () => {
    const store = new Store();
    for (const ns of ['a', 'ab', 'b']) for (let i = 0; i < 3; i++) store.create(R.pods, pod(ns, `p${i}`));
    expect(store.list(R.pods, { namespace: 'a' }).items.map((p) => p.metadata.namespace)).toEqual([
      'a',
      'a',
      'a',
    ]);
  });

  it('reports how many objects remain after a page of an unfiltered list', () => {
    const store = new Store();
    for (let i = 0; i < 10; i++) store.create(R.pods, pod('default', `p${i}`));
    expect(store.list(R.pods, { limit: 4 }).remaining).toBe(6);
  });

  it('checks uid and resourceVersion preconditions on delete', () => {
    const store = new Store();
    const created = store.create(R.pods, pod('default', 'a'));
    const error = (() => {
      try {
        store.delete(R.pods, 'default', 'a', { uid: 'other' });
      } catch (e) {
        return e as ApiError;
      }
    })();
    expect(error?.code).toBe(409);
    expect(error?.message).toBe(
      `Operation cannot be fulfilled on Pod "a": the UID in the precondition (other) does not match the UID in record (${created.metadata.uid}). The object might have been deleted and then recreated`,
    );
    expect(store.get(R.pods, 'default', 'a')).toBeDefined();
    store.delete(R.pods, 'default', 'a', { uid: created.metadata.uid as string });
    expect(store.get(R.pods, 'default', 'a')).toBeUndefined();
  });

  it('expires snapshots older than the compacted revision, and forgets deleted keys', () => {
    const store = new Store();
    store.create(R.pods, pod('default', 'a'));
    const old = store.revision;
    store.delete(R.pods, 'default', 'a');
    store.compact();
    expect(() => store.list(R.pods, { revision: old })).toThrow(/too old to display a consistent list/);
    expect(store.list(R.pods).items).toEqual([]);
    store.create(R.pods, pod('default', 'a'));
    expect(store.list(R.pods).items).toHaveLength(1);
  });

  it('replays the changes after a revision for watchers', () => {
    const store = new Store();
    const start = store.revision;
    store.create(R.pods, pod('default', 'a'));
    store.update(R.pods, 'default', 'a', (p) => ({ ...p, metadata: { ...p.metadata, labels: { x: 'y' } } }));
    store.delete(R.pods, 'default', 'a');
    expect(store.changesSince(R.pods, start).map((e) => e.type)).toEqual(['ADDED', 'MODIFIED', 'DELETED']);
  });

  it('emits an event for every write', () => {
    const store = new Store();
    const types: string[] = [];
    store.on('event', (event) => types.push(`${event.type} ${event.object.metadata.name}`));
    store.create(R.pods, pod('default', 'a'));
    store.delete(R.pods, 'default', 'a');
    expect(types).toEqual(['ADDED a', 'DELETED a']);
  });
});
