import {
  isKubeError,
  type KubeReader,
  type PodFacts,
  podFacts,
  RESOURCES,
  type ResourceRef,
} from '../../sdk/index.ts';

/** Server-side filters: only Running pods on the pod network can be unmanaged. */
export const RUNNING_ON_POD_NETWORK = 'status.phase=Running,spec.hostNetwork=false';

/** A namespace's place in the server's key order: its objects' keys all start with it. */
export const namespaceKey = (namespace: string) => `${namespace}/`;

/** The order kube-apiserver lists in: by key, compared as strings (`a-b/x` before `a/x`). */
export const byNamespaceKey = (a: string, b: string) => {
  const [x, y] = [namespaceKey(a), namespaceKey(b)];
  return x < y ? -1 : x > y ? 1 : 0;
};

/** What the side-by-side read found in the namespaces it read whole. */
export interface NamespacesRead {
  podsChecked: number;
  endpoints: number;
  /** Running pods on the pod network without a CiliumEndpoint, not yet split by age. */
  withoutEndpoint: PodFacts[];
}

/** How far the read got: the namespaces it did not read whole (all of them when none), in key order. */
export interface SideBySideRead extends NamespacesRead {
  left: string[];
}

/** The endpoints' keys, a page at a time, with a cursor moved forward only. */
class EndpointCursor {
  #page: string[] = [];
  #at = 0;
  #ended = false;

  constructor(
    private readonly pages: AsyncIterator<string[]>,
    /** Told of each key the cursor moves past. */
    private readonly passed: (key: string) => void,
  ) {}

  /** Moves past every key below `key` in the page in hand: whether it then stands on `key`, or undefined when the page ran out first. */
  inPage(key: string): boolean | undefined {
    while (this.#at < this.#page.length) {
      const current = this.#page[this.#at] as string;
      if (current >= key) return current === key;
      this.passed(current);
      this.#at++;
    }
    return this.#ended ? false : undefined;
  }

  /** Moves past every key below `key`, reading pages as needed: whether it then stands on `key`. */
  async seek(key: string): Promise<boolean> {
    for (;;) {
      const here = this.inPage(key);
      if (here !== undefined) return here;
      const next = await this.pages.next();
      if (next.done) this.#ended = true;
      else [this.#page, this.#at] = [next.value, 0];
    }
  }

  /** Moves past every key left. */
  async drain(): Promise<void> {
    // U+FFFF sorts after every character a namespace or name may hold.
    await this.seek('\uffff');
  }

  async close(): Promise<void> {
    await this.pages.return?.();
  }
}

/** The object, or undefined when the server has none of that name. */
async function found(kube: Pick<KubeReader, 'get'>, resource: ResourceRef, namespace: string, name: string) {
  try {
    return await kube.get(resource, namespace, name);
  } catch (error) {
    if (isKubeError(error, 'not-found')) return undefined;
    throw error;
  }
}

/**
 * A pod the read found no endpoint beside, asked after by name: its facts when it is still Running
 * and has no CiliumEndpoint. A list out of key order then costs requests, never a pod judged
 * unmanaged in error, and the facts judged are the pod's as it is now.
 */
async function withoutEndpoint(
  kube: Pick<KubeReader, 'get'>,
  namespace: string,
  name: string,
): Promise<PodFacts | undefined> {
  if (await found(kube, RESOURCES.ciliumendpoints, namespace, name)) return undefined;
  const pod = await found(kube, RESOURCES.pods, namespace, name);
  const phase = (pod?.status as { phase?: string } | undefined)?.phase;
  return pod && phase === 'Running' ? podFacts(pod) : undefined;
}

/** A namespace whose pods are being read: its tallies, kept apart until it is read whole. */
interface Pending {
  namespace: string;
  pods: number;
  endpoints: number;
  withoutEndpoint: PodFacts[];
}

/**
 * Every namespace at once: the cluster's Running pods and its CiliumEndpoints (names only), read
 * side by side a page at a time. kube-apiserver lists both in key order, so a pod has an endpoint
 * when the endpoints' cursor, moved past every key below the pod's, stands on the pod's key. It
 * holds a page of each list: the requests of reading both lists once, whatever the cluster's
 * size. A pod's page is read before the endpoints beside it, so an endpoint written in between
 * counts; a pod found with none beside it is asked after by name before it is judged.
 *
 * It stops between pages once `pausing` says so, or when the server expires a continue token
 * (410): what it keeps is the namespaces it read whole, and `left` names the rest (`namespaces`,
 * in key order), for reading one at a time, as continue tokens do not outlive an invocation.
 */
export async function readSideBySide(
  kube: Pick<KubeReader, 'pages' | 'get'>,
  namespaces: readonly string[],
  options: { pausing: () => boolean; onNamespaceRead: (read: number) => void },
): Promise<SideBySideRead> {
  const read: NamespacesRead = { podsChecked: 0, endpoints: 0, withoutEndpoint: [] };
  let pending: Pending | undefined;
  /** Namespaces before this one in `namespaces` are read whole. */
  let readUpTo = 0;
  const endpoints = new EndpointCursor(
    kube
      .pages(RESOURCES.ciliumendpoints, {
        metadataOnly: true,
        project: ({ metadata }) => `${metadata.namespace}/${metadata.name}`,
      })
      [Symbol.asyncIterator](),
    (key) => {
      if (pending && key.startsWith(namespaceKey(pending.namespace))) pending.endpoints++;
      else read.endpoints++;
    },
  );
  /** The pending namespace is read whole, and so is every listed one before `next`. */
  const readWhole = (next: string | undefined) => {
    if (pending) {
      read.podsChecked += pending.pods;
      read.endpoints += pending.endpoints;
      read.withoutEndpoint.push(...pending.withoutEndpoint);
    }
    const before = readUpTo;
    while (
      readUpTo < namespaces.length &&
      (next === undefined || byNamespaceKey(namespaces[readUpTo] as string, next) < 0)
    )
      readUpTo++;
    if (readUpTo > before) options.onNamespaceRead(readUpTo);
    pending =
      next === undefined ? undefined : { namespace: next, pods: 0, endpoints: 0, withoutEndpoint: [] };
  };
  // Names only: a page is held while the endpoints beside it are read, and a whole page of pods
  // held that long would be carried into the old generation, page after page.
  const pods = kube.pages(RESOURCES.pods, {
    fieldSelector: RUNNING_ON_POD_NETWORK,
    project: ({ metadata }) => ({ namespace: metadata.namespace ?? '', name: metadata.name }),
  });
  try {
    for await (const page of pods) {
      for (const { namespace, name } of page) {
        if (namespace !== pending?.namespace) readWhole(namespace);
        const current = pending as Pending;
        current.pods++;
        const key = `${namespace}/${name}`;
        // Most pods are judged within the endpoint page in hand, without a wait.
        if (endpoints.inPage(key) ?? (await endpoints.seek(key))) continue;
        const unmanaged = await withoutEndpoint(kube, namespace, name);
        if (unmanaged) current.withoutEndpoint.push(unmanaged);
      }
      if (options.pausing()) return { ...read, left: namespaces.slice(readUpTo) };
    }
    readWhole(undefined);
    await endpoints.drain();
    return { ...read, left: [] };
  } catch (error) {
    if (isKubeError(error) && error.status === 410) return { ...read, left: namespaces.slice(readUpTo) };
    throw error;
  } finally {
    await endpoints.close();
  }
}
