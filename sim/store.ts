import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { ByteSink } from './byte-sink.ts';
import { type CompactKind, CompactRead, makeRow, type Projection } from './compact.ts';
import { deepFreeze, type KubeObject } from './objects.ts';
import { RESOURCES, type ResourceType } from './resources.ts';
import { errors } from './status.ts';

/**
 * A multi-version object store, like etcd behind kube-apiserver: every write gets the next global
 * revision, and a read can ask for the state at any revision not yet compacted. Lists page through
 * a consistent snapshot without copying the store: keys stay sorted, and each key keeps its latest
 * version linked to the ones before, so a page at revision R simply skips versions newer than R.
 */

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED';

export interface StoreEvent {
  type: WatchEventType;
  resource: ResourceType;
  object: KubeObject;
  revision: number;
}

/**
 * One version of an object, linked to the one before it. A generated object can be kept as the
 * facts it was made from (`make` set, `object` the facts), built into the full object only when
 * read: a 3-million-pod cluster then holds its pods as small rows that share their workload's
 * frozen parts. `make` must be pure, so every read sees the same object, and build a new object
 * and metadata each call: the read stamps its resourceVersion on them. A `CompactKind` also lets
 * a list serve the row's JSON without building it (see sim/compact.ts).
 */
type Make = ((facts: unknown) => KubeObject) | CompactKind<unknown>;

interface Version {
  revision: number;
  /** null marks a deletion. */
  object: unknown;
  make: Make | undefined;
  previous: Version | undefined;
}

/** The object `make` just built, stamped with the version's resourceVersion and frozen, as every read returns it. */
function atRevision(made: KubeObject, revision: number): KubeObject {
  made.metadata.resourceVersion = String(revision);
  return deepFreeze(made);
}

function build(make: Make, facts: unknown, revision: number): KubeObject {
  return typeof make === 'function' ? atRevision(make(facts), revision) : makeRow(make, facts, revision);
}

function objectOf(version: Version | undefined): KubeObject | null {
  if (!version) return null;
  return version.make
    ? build(version.make, version.object, version.revision)
    : (version.object as KubeObject | null);
}

/** An object a list read: the object itself, its JSON as served, or values derived from it. */
export interface ListedObject {
  object(): KubeObject;
  /** JSON.stringify(project(object)), written into `sink`. */
  writeJson(project: Projection, sink: ByteSink): void;
  derived<T>(project: (object: KubeObject) => T): T;
}

class StoredRead implements ListedObject {
  constructor(private readonly stored: KubeObject) {}
  object(): KubeObject {
    return this.stored;
  }
  writeJson(project: Projection, sink: ByteSink): void {
    sink.text(JSON.stringify(project(this.stored)));
  }
  derived<T>(project: (object: KubeObject) => T): T {
    return project(this.stored);
  }
}

function readOf(version: Version): ListedObject {
  const make = version.make;
  if (make && typeof make !== 'function' && make.shape(version.object)) {
    return new CompactRead(make, version.object, version.revision);
  }
  return new StoredRead(objectOf(version) as KubeObject);
}

export interface ListOptions {
  namespace?: string;
  /** Snapshot revision; defaults to the current one. */
  revision?: number;
  /** Continue after this key (exclusive). */
  after?: string;
  /** Page size; 0 or absent means everything. */
  limit?: number;
  filter?: (object: KubeObject) => boolean;
  /** From the previous page: lets an unfiltered page report `remaining` in O(page). */
  tally?: ListTally;
}

export interface ReadListOptions extends Omit<ListOptions, 'filter'> {
  /** Like `filter`, on what a list read (a compact row's values read without building it). */
  match?: (read: ListedObject) => boolean;
}

export interface ListPage<T = KubeObject> {
  items: T[];
  revision: number;
  /** Key of the last item when more may follow; absent on the last page. */
  nextKey?: string;
  /** Objects left after this page, when no filter was given (as kube-apiserver reports it). */
  remaining?: number;
  /** What the next page needs to count `remaining` without rescanning: the snapshot's size and how many came before. */
  tally?: ListTally;
}

export interface ListTally {
  total: number;
  seen: number;
}

export interface DeleteOptions {
  uid?: string;
  resourceVersion?: string;
}

export interface StoreOptions {
  now?: () => Date;
  newUid?: () => string;
}

class Table {
  /** The latest version of each key. */
  readonly versions = new Map<string, Version>();
  /** Keys in order; may include keys whose latest version is a deletion (until compaction). */
  sorted: string[] = [];
  private pending: string[] = [];
  live = 0;

  addKey(key: string): void {
    this.pending.push(key);
  }

  keys(): string[] {
    if (this.pending.length > 0) this.mergePending();
    return this.sorted;
  }

  private mergePending(): void {
    const added = this.pending.sort(compareKeys);
    this.pending = [];
    if (added.length < 64) {
      for (const key of added) this.sorted.splice(lowerBound(this.sorted, key), 0, key);
      return;
    }
    const merged: string[] = new Array(this.sorted.length + added.length);
    let i = 0;
    let j = 0;
    let k = 0;
    while (i < this.sorted.length && j < added.length) {
      merged[k++] =
        compareKeys(this.sorted[i] as string, added[j] as string) <= 0
          ? (this.sorted[i++] as string)
          : (added[j++] as string);
    }
    while (i < this.sorted.length) merged[k++] = this.sorted[i++] as string;
    while (j < added.length) merged[k++] = added[j++] as string;
    this.sorted = merged;
  }
}

function compareKeys(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Index of the first key >= key. */
function lowerBound(keys: readonly string[], key: string): number {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((keys[mid] as string) < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The version a read at `revision` sees, undefined when the object did not exist then. */
function visibleAt(latest: Version | undefined, revision: number): Version | undefined {
  for (let version = latest; version; version = version.previous) {
    if (version.revision <= revision) return version.object === null ? undefined : version;
  }
  return undefined;
}

export function objectKey(namespace: string | undefined, name: string): string {
  return namespace ? `${namespace}/${name}` : name;
}

export class Store extends EventEmitter<{ event: [StoreEvent] }> {
  private readonly tables = new Map<ResourceType, Table>();
  private revisionCounter = 1;
  /** Reads below this revision answer 410 Expired. */
  compactedRevision = 0;
  private readonly now: () => Date;
  private readonly newUid: () => string;

  constructor(options: StoreOptions = {}) {
    super();
    this.setMaxListeners(0);
    this.now = options.now ?? (() => new Date());
    this.newUid = options.newUid ?? randomUUID;
    for (const type of RESOURCES) this.tables.set(type, new Table());
  }

  get revision(): number {
    return this.revisionCounter;
  }

  private table(type: ResourceType): Table {
    const table = this.tables.get(type);
    if (!table) throw new Error(`no table for ${type.plural}`);
    return table;
  }

  count(type: ResourceType): number {
    return this.table(type).live;
  }

  get<T extends KubeObject = KubeObject>(
    type: ResourceType,
    namespace: string | undefined,
    name: string,
  ): T | undefined {
    return (objectOf(this.table(type).versions.get(objectKey(namespace, name))) ?? undefined) as
      | T
      | undefined;
  }

  /** Like get, but a missing object is the API's 404. */
  mustGet<T extends KubeObject = KubeObject>(
    type: ResourceType,
    namespace: string | undefined,
    name: string,
  ): T {
    const found = this.get<T>(type, namespace, name);
    if (!found) throw errors.notFound(type, name);
    return found;
  }

  create<T extends KubeObject>(type: ResourceType, input: T): T {
    const key = this.freeKey(type, input);
    const revision = ++this.revisionCounter;
    const metadata = {
      ...input.metadata,
      uid: input.metadata.uid ?? this.newUid(),
      resourceVersion: String(revision),
      creationTimestamp: input.metadata.creationTimestamp ?? this.timestamp(),
    };
    if (!type.namespaced) delete metadata.namespace;
    const object = deepFreeze({ ...input, metadata }) as T;
    this.insert(type, key, revision, object);
    this.emit('event', { type: 'ADDED', resource: type, object, revision });
    return object;
  }

  /**
   * Creates an object of a namespaced resource that is stored as `facts` and rebuilt by `make` on
   * every read (see Version). `make` gives the whole object but its resourceVersion: uid and
   * creationTimestamp included. Writes to it store full objects over it, as for any other.
   */
  createCompact<F, T extends KubeObject>(
    type: ResourceType,
    facts: F,
    make: ((facts: F) => T) | CompactKind<F>,
  ): T {
    const made = (typeof make === 'function' ? make(facts) : make.makeWith(facts, make.values(facts))) as T;
    const { uid, creationTimestamp, namespace } = made.metadata;
    if (!type.namespaced || !namespace || !uid || !creationTimestamp) {
      throw new Error(
        `a compact ${type.kind} needs a namespaced resource and metadata.namespace, uid and creationTimestamp`,
      );
    }
    const key = this.freeKey(type, made);
    const revision = ++this.revisionCounter;
    this.insert(type, key, revision, facts, make as Make);
    const object = atRevision(made, revision) as T;
    this.emit('event', { type: 'ADDED', resource: type, object, revision });
    return object;
  }

  /** The object's key, if no live object holds it. */
  private freeKey(type: ResourceType, input: KubeObject): string {
    const { namespace, name } = input.metadata;
    const key = objectKey(type.namespaced ? namespace : undefined, name);
    if (this.table(type).versions.get(key)?.object) throw errors.alreadyExists(type, name);
    return key;
  }

  private insert(type: ResourceType, key: string, revision: number, object: unknown, make?: Make): void {
    const table = this.table(type);
    if (!this.push(table, key, revision, object, make)) table.addKey(key);
    table.live++;
  }

  /** Makes this the key's latest version; false when the key had none. */
  private push(table: Table, key: string, revision: number, object: unknown, make?: Make): boolean {
    const previous = table.versions.get(key);
    table.versions.set(key, { revision, object, make, previous });
    return previous !== undefined;
  }

  /**
   * Writes a new version built from the current one. `expectResourceVersion` gives the optimistic
   * concurrency kube-apiserver applies to updates that carry metadata.resourceVersion.
   */
  update<T extends KubeObject>(
    type: ResourceType,
    namespace: string | undefined,
    name: string,
    change: (current: T) => T,
    expectResourceVersion?: string,
  ): T {
    const current = this.mustGet<T>(type, namespace, name);
    if (expectResourceVersion && expectResourceVersion !== current.metadata.resourceVersion) {
      throw errors.conflict(
        type,
        name,
        'the object has been modified; please apply your changes to the latest version and try again',
      );
    }
    const next = change(current);
    const revision = ++this.revisionCounter;
    const object = deepFreeze({
      ...next,
      metadata: {
        ...next.metadata,
        name: current.metadata.name,
        uid: current.metadata.uid,
        creationTimestamp: current.metadata.creationTimestamp,
        resourceVersion: String(revision),
      },
    }) as T;
    this.push(this.table(type), objectKey(type.namespaced ? namespace : undefined, name), revision, object);
    this.emit('event', { type: 'MODIFIED', resource: type, object, revision });
    return object;
  }

  /** The object a delete with these preconditions would remove; throws as the delete would. */
  checkDelete<T extends KubeObject>(
    type: ResourceType,
    namespace: string | undefined,
    name: string,
    options: DeleteOptions = {},
  ): T {
    const current = this.mustGet<T>(type, namespace, name);
    if (options.uid && options.uid !== current.metadata.uid) {
      throw errors.preconditionFailed(type, name, 'UID', options.uid, current.metadata.uid ?? '');
    }
    if (options.resourceVersion && options.resourceVersion !== current.metadata.resourceVersion) {
      throw errors.preconditionFailed(
        type,
        name,
        'ResourceVersion',
        options.resourceVersion,
        current.metadata.resourceVersion ?? '',
      );
    }
    return current;
  }

  delete<T extends KubeObject>(
    type: ResourceType,
    namespace: string | undefined,
    name: string,
    options: DeleteOptions = {},
  ): T {
    const current = this.checkDelete<T>(type, namespace, name, options);
    const table = this.table(type);
    const revision = ++this.revisionCounter;
    const object = deepFreeze({
      ...current,
      metadata: {
        ...current.metadata,
        resourceVersion: String(revision),
        deletionTimestamp: this.timestamp(),
      },
    }) as T;
    this.push(table, objectKey(type.namespaced ? namespace : undefined, name), revision, null);
    table.live--;
    this.emit('event', { type: 'DELETED', resource: type, object, revision });
    return object;
  }

  /**
   * One page of a list at a consistent revision. Walks the sorted keys from `after`, so a page costs
   * the objects it looks at, never a copy of the store.
   */
  list(type: ResourceType, options: ListOptions = {}): ListPage {
    const { filter, ...rest } = options;
    const page = this.listReads(type, filter ? { ...rest, match: (read) => filter(read.object()) } : rest);
    return { ...page, items: page.items.map((read) => read.object()) };
  }

  /** Like list, giving what each object a list read instead of the objects: the list API serves these. */
  listReads(type: ResourceType, options: ReadListOptions = {}): ListPage<ListedObject> {
    const revision = options.revision ?? this.revisionCounter;
    if (revision < this.compactedRevision) {
      throw errors.expired(
        'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.',
      );
    }
    const table = this.table(type);
    const keys = table.keys();
    const prefix = type.namespaced && options.namespace ? `${options.namespace}/` : '';
    let index = options.after !== undefined ? lowerBound(keys, options.after) : lowerBound(keys, prefix);
    if (options.after !== undefined && keys[index] === options.after) index++;
    const limit = options.limit && options.limit > 0 ? options.limit : Number.POSITIVE_INFINITY;
    const items: ListedObject[] = [];
    let lastKey: string | undefined;
    for (; index < keys.length; index++) {
      const key = keys[index] as string;
      if (prefix && !key.startsWith(prefix)) break;
      const version = visibleAt(table.versions.get(key), revision);
      if (!version) continue;
      const read = readOf(version);
      if (options.match && !options.match(read)) continue;
      if (items.length === limit) {
        const counted =
          options.match || prefix ? undefined : this.tallyAfter(table, revision, items.length, options.tally);
        return {
          items,
          revision,
          nextKey: lastKey as string,
          ...(counted ? { remaining: counted.total - counted.seen, tally: counted } : {}),
        };
      }
      items.push(read);
      lastKey = key;
    }
    return { items, revision };
  }

  /**
   * The snapshot's size is known exactly on the first page (the live count at the current revision)
   * and carried forward in the continue token, so later pages never rescan the store.
   */
  private tallyAfter(
    table: Table,
    revision: number,
    pageSize: number,
    previous?: ListTally,
  ): ListTally | undefined {
    if (previous) return { total: previous.total, seen: previous.seen + pageSize };
    return revision === this.revisionCounter ? { total: table.live, seen: pageSize } : undefined;
  }

  /** The changes to one resource after `revision`, oldest first, rebuilt from the version chains. */
  changesSince(type: ResourceType, revision: number): StoreEvent[] {
    const events: StoreEvent[] = [];
    for (const latest of this.table(type).versions.values()) {
      for (
        let version: Version | undefined = latest;
        version && version.revision > revision;
        version = version.previous
      ) {
        const previous = objectOf(version.previous);
        const object = objectOf(version);
        if (object) {
          events.push({
            type: previous ? 'MODIFIED' : 'ADDED',
            resource: type,
            object,
            revision: version.revision,
          });
        } else if (previous) {
          const gone = {
            ...previous,
            metadata: { ...previous.metadata, resourceVersion: String(version.revision) },
          };
          events.push({ type: 'DELETED', resource: type, object: gone, revision: version.revision });
        }
      }
    }
    return events.sort((a, b) => a.revision - b.revision);
  }

  /** Drops versions that no read at or after `revision` can see, and keys that are gone for good. */
  compact(revision: number = this.revisionCounter): void {
    this.compactedRevision = Math.max(this.compactedRevision, revision);
    for (const table of this.tables.values()) {
      let removedKeys = false;
      for (const [key, latest] of table.versions) {
        let kept: Version | undefined = latest;
        while (kept && kept.revision > revision) kept = kept.previous;
        if (kept) kept.previous = undefined;
        if (latest.object === null && latest.revision <= revision) {
          table.versions.delete(key);
          removedKeys = true;
        }
      }
      if (removedKeys) table.sorted = table.keys().filter((key) => table.versions.has(key));
    }
  }

  /** A uid as the store gives new objects, for a caller that builds an object's facts itself. */
  nextUid(): string {
    return this.newUid();
  }

  timestamp(): string {
    return this.now()
      .toISOString()
      .replace(/\.\d{3}Z$/, 'Z');
  }
}
