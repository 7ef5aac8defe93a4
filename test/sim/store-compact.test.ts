import { describe, expect, it } from 'vitest';
import { R } from '../../sim/cluster.ts';
import type { KubeObject } from '../../sim/objects.ts';
import { Store, type StoreEvent } from '../../sim/store.ts';

interface Row {
  name: string;
  uid: string;
  ip: string;
}

let builds = 0;

/** A pod built from its row, as the scenario builder stores generated pods. */
function podOf(row: Row): KubeObject {
  builds++;
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: row.name, namespace: 'team', uid: row.uid, creationTimestamp: '2026-01-01T00:00:00Z' },
    spec: { containers: [] },
    status: { podIP: row.ip },
  };
}

function compactStore(): { store: Store; created: KubeObject } {
  const store = new Store();
  const created = store.createCompact(R.pods, { name: 'web-1', uid: 'uid-1', ip: '100.64.0.3' }, podOf);
  return { store, created };
}

describe('Store: compact rows', () => {
  it('reads a compact object as the whole object, with the resourceVersion it was written at', () => {
    const { store, created } = compactStore();
    const read = store.get(R.pods, 'team', 'web-1');
    expect(read).toEqual(created);
    expect(read?.metadata.resourceVersion).toBe(String(store.revision));
    expect((read?.status as { podIP?: string } | undefined)?.podIP).toBe('100.64.0.3');
    expect(Object.isFrozen(read?.metadata)).toBe(true);
    expect(store.list(R.pods, { namespace: 'team' }).items).toEqual([created]);
  });

  it('keeps the row, not the object: each read builds it afresh', () => {
    const { store } = compactStore();
    const before = builds;
    store.get(R.pods, 'team', 'web-1');
    store.list(R.pods);
    expect(builds - before).toBe(2);
  });

  it('puts a write over the row, while a snapshot before it still sees the row', () => {
    const { store, created } = compactStore();
    const before = store.revision;
    const updated = store.update(R.pods, 'team', 'web-1', (pod) => ({
      ...pod,
      metadata: { ...pod.metadata, labels: { patched: 'yes' } },
    }));
    expect(updated.metadata.uid).toBe('uid-1');
    expect(store.get(R.pods, 'team', 'web-1')?.metadata.labels).toEqual({ patched: 'yes' });
    expect(store.list(R.pods, { revision: before }).items).toEqual([created]);
    const changes = store.changesSince(R.pods, 0).map((e: StoreEvent) => e.type);
    expect(changes).toEqual(['ADDED', 'MODIFIED']);
  });

  it('holds uid preconditions and deletes like any object', () => {
    const { store } = compactStore();
    expect(() => store.delete(R.pods, 'team', 'web-1', { uid: 'other' })).toThrow(
      'the UID in the precondition (other) does not match the UID in record (uid-1)',
    );
    store.delete(R.pods, 'team', 'web-1', { uid: 'uid-1' });
    expect(store.get(R.pods, 'team', 'web-1')).toBeUndefined();
    expect(store.count(R.pods)).toBe(0);
    expect(() => store.createCompact(R.pods, { name: 'web-1', uid: 'uid-2', ip: 'x' }, podOf)).not.toThrow();
  });

  it('refuses a name already taken, and a row whose object lacks its uid', () => {
    const { store } = compactStore();
    expect(() => store.createCompact(R.pods, { name: 'web-1', uid: 'uid-9', ip: 'x' }, podOf)).toThrow(
      'pods "web-1" already exists',
    );
    expect(() => store.createCompact(R.pods, { name: 'web-2', uid: '', ip: 'x' }, podOf)).toThrow(
      'metadata.namespace, uid and creationTimestamp',
    );
  });
});
