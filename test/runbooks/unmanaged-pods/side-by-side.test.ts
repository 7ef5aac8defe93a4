import { describe, expect, it } from 'vitest';
import { byNamespaceKey, readSideBySide } from '../../../runbooks/unmanaged-pods/side-by-side.ts';
import { KubeError, type KubeObject, type KubeReader, type ListOptions } from '../../../src/cluster/types.ts';

type Key = `${string}/${string}`;

const object = (key: Key): KubeObject => {
  const [namespace, name] = key.split('/') as [string, string];
  return { metadata: { namespace, name, uid: `uid-${name}` }, spec: { nodeName: 'node-1' } };
};

/**
 * A cluster's pods and endpoints served a page at a time in the order given (kube-apiserver's is
 * the keys' string order), asked by name as `get`. `failAt` fails the pod page of that index.
 */
function lists(
  pods: Key[],
  endpoints: Key[],
  options: { pageSize: number; failAt?: [number, Error]; phases?: Record<Key, string>; gone?: Key[] },
) {
  const asked: string[] = [];
  const phases = options.phases ?? {};
  const kube: Pick<KubeReader, 'pages' | 'get'> = {
    async *pages<T>(resource: { plural: string }, list: ListOptions<T>) {
      const keys = resource.plural === 'pods' ? pods : endpoints;
      for (let at = 0, page = 0; at < keys.length; at += options.pageSize, page++) {
        if (resource.plural === 'pods' && options.failAt?.[0] === page) throw options.failAt[1];
        asked.push(`page ${resource.plural}`);
        const project = list.project as (o: KubeObject) => T | undefined;
        yield keys
          .slice(at, at + options.pageSize)
          .map((key) => project(object(key)))
          .filter((kept) => kept !== undefined);
      }
    },
    async get(resource, namespace, name) {
      const key: Key = `${namespace}/${name}`;
      asked.push(`get ${resource.plural} ${key}`);
      if (resource.plural === 'ciliumendpoints' && endpoints.includes(key)) return object(key);
      if (resource.plural === 'pods' && pods.includes(key) && !options.gone?.includes(key))
        return { ...object(key), status: { phase: phases[key] ?? 'Running' } };
      throw new KubeError('not-found', 'get', resource.plural, '', 404);
    },
  };
  return { kube, asked };
}

const inKeyOrder = (keys: Key[]) => [...keys].sort();
const names = (pods: { namespace: string; name: string }[]) => pods.map((p) => `${p.namespace}/${p.name}`);
const never = () => false;

describe('readSideBySide', () => {
  it('joins in the server key order, where a-b/ sorts before a/, asking by name only for pods with none beside them', async () => {
    const pods = inKeyOrder(['a/web-1', 'a/web-2', 'a-b/api-1', 'a-b/api-2', 'b/db-1']);
    const endpoints = inKeyOrder(['a/web-1', 'a-b/api-1', 'a-b/api-2', 'a-b/gone', 'b/db-1', 'c/x']);
    expect(pods[0]).toBe('a-b/api-1');
    const { kube, asked } = lists(pods, endpoints, { pageSize: 2 });
    const namespaces = ['a', 'a-b', 'b', 'c'].sort(byNamespaceKey);
    expect(namespaces).toEqual(['a-b', 'a', 'b', 'c']);
    const seen: number[] = [];

    const read = await readSideBySide(kube, namespaces, {
      pausing: never,
      onNamespaceRead: (n) => seen.push(n),
    });

    expect(names(read.withoutEndpoint)).toEqual(['a/web-2']);
    expect(read).toMatchObject({ podsChecked: 5, endpoints: 6, left: [] });
    expect(asked.filter((a) => a.startsWith('get'))).toEqual([
      'get ciliumendpoints a/web-2',
      'get pods a/web-2',
    ]);
    expect(seen.at(-1)).toBe(namespaces.length);
  });

  it('judges no pod unmanaged in error when a list comes out of key order', async () => {
    const pods: Key[] = ['a/p1', 'a/p2', 'b/p1'];
    const endpoints: Key[] = ['a/p1', 'b/p1', 'a/p2'];
    const { kube } = lists(pods, endpoints, { pageSize: 1 });

    const read = await readSideBySide(kube, ['a', 'b'], { pausing: never, onNamespaceRead: () => {} });

    expect(read.withoutEndpoint).toEqual([]);
    expect(read.podsChecked).toBe(3);
  });

  it('judges a pod found without an endpoint as it is when asked after: gone or no longer Running, it is not judged', async () => {
    const { kube } = lists(['a/done', 'a/gone', 'a/running'], [], {
      pageSize: 5,
      phases: { 'a/done': 'Succeeded' },
      gone: ['a/gone'],
    });

    const read = await readSideBySide(kube, ['a'], { pausing: never, onNamespaceRead: () => {} });

    expect(names(read.withoutEndpoint)).toEqual(['a/running']);
    expect(read.podsChecked).toBe(3);
  });

  it('paused between pages, keeps the namespaces read whole and leaves the one read in part', async () => {
    const pods: Key[] = ['a/p1', 'a/p2', 'b/p1', 'b/p2', 'c/p1'];
    const endpoints: Key[] = ['a/p1', 'b/p1', 'b/p2', 'c/p1'];
    const { kube } = lists(pods, endpoints, { pageSize: 3 });

    const read = await readSideBySide(kube, ['a', 'b', 'c', 'd'], {
      pausing: () => true,
      onNamespaceRead: () => {},
    });

    // b's first pod was read; b is left whole for the next invocation, counted by it alone.
    expect(read).toMatchObject({ podsChecked: 2, endpoints: 1, left: ['b', 'c', 'd'] });
    expect(names(read.withoutEndpoint)).toEqual(['a/p2']);
  });

  it('goes no further when a continue token has expired (410), leaving the namespaces not read whole', async () => {
    const pods: Key[] = ['a/p1', 'a/p2', 'b/p1', 'b/p2'];
    const expired = new KubeError('invalid', 'list', 'pods', 'continue token expired', 410);
    const { kube } = lists(pods, pods, { pageSize: 3, failAt: [1, expired] });

    const read = await readSideBySide(kube, ['a', 'b'], { pausing: never, onNamespaceRead: () => {} });

    expect(read).toMatchObject({ podsChecked: 2, left: ['b'] });
  });

  it('fails with any other error', async () => {
    const refused = new KubeError('forbidden', 'list', 'pods', '', 403);
    const { kube } = lists(['a/p1'], [], { pageSize: 1, failAt: [0, refused] });

    await expect(readSideBySide(kube, ['a'], { pausing: never, onNamespaceRead: () => {} })).rejects.toBe(
      refused,
    );
  });
});
