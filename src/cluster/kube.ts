import type { KubeConfig } from '@kubernetes/client-node';
import type { ConnectionOptions } from './connection.ts';
import { execInPod } from './exec.ts';
import type { HttpRequest, SendRequest } from './http.ts';
import { resourcePath } from './paths.ts';
import { type RetryPolicy, refusedBeforeHandling, transientError, withRetries } from './retry.ts';
import { errorFromResponse, isStatusBody } from './status.ts';
import {
  type EvictionResult,
  type EvictOptions,
  type ExecOptions,
  type ExecResult,
  KubeError,
  type KubeFacade,
  type KubeObject,
  type ListOptions,
  RESOURCES,
  type ResourceRef,
} from './types.ts';

const DEFAULT_PAGE_SIZE = 500;
/** Metadata only, with plain JSON as the fallback for servers that cannot serve it. */
const METADATA_LIST_ACCEPT =
  'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json';

export interface KubeFacadeOptions {
  clusterName: string;
  send: SendRequest;
  kc: KubeConfig;
  /** TLS and credentials for exec upgrades. */
  connection: ConnectionOptions;
  retries: number;
}

interface ListPage {
  metadata?: { continue?: string };
  items?: KubeObject[];
}

/** An eviction 429 caused by a PodDisruptionBudget: the budget's own words, or undefined. */
function disruptionBudgetMessage(body: unknown): string | undefined {
  if (!isStatusBody(body)) return undefined;
  const cause = body.details?.causes?.find((c) => c.reason === 'DisruptionBudget');
  return cause ? (cause.message ?? body.message ?? 'blocked by a PodDisruptionBudget') : undefined;
}

/**
 * The Kubernetes API for runbooks: typed errors, retries where repeating is safe, paged and
 * projected lists, PDB-aware evictions and WebSocket exec.
 */
export class HttpKubeFacade implements KubeFacade {
  readonly clusterName: string;
  private readonly reads: RetryPolicy;
  private readonly writes: RetryPolicy;
  private readonly execs: RetryPolicy;

  constructor(private readonly options: KubeFacadeOptions) {
    this.clusterName = options.clusterName;
    this.reads = { retries: options.retries, retryable: transientError };
    this.writes = { retries: options.retries, retryable: refusedBeforeHandling };
    // An upgrade the server refused with a status ran nothing; a failure after it may have.
    this.execs = { retries: options.retries, retryable: (e) => transientError(e) && e.status !== undefined };
  }

  /** One request that must succeed (2xx); anything else is its typed error. */
  private async call<T>(request: HttpRequest): Promise<T> {
    const response = await this.options.send(request);
    if (response.status >= 200 && response.status < 300) return response.body as T;
    throw errorFromResponse(request, response.status, response.body, response.retryAfter);
  }

  get(resource: ResourceRef, namespace: string | undefined, name: string): Promise<KubeObject> {
    const request: HttpRequest = {
      method: 'GET',
      path: resourcePath(resource, { namespace, name }),
      verb: 'get',
      resource: resource.plural,
    };
    return withRetries(() => this.call<KubeObject>(request), this.reads);
  }

  async list<T = KubeObject>(resource: ResourceRef, options: ListOptions<T>): Promise<T[]> {
    try {
      return await this.listPages(resource, options);
    } catch (error) {
      // 410 Expired: the snapshot the continue token pins was compacted. Start over once.
      if (error instanceof KubeError && error.status === 410) return this.listPages(resource, options);
      throw error;
    }
  }

  private async listPages<T>(resource: ResourceRef, options: ListOptions<T>): Promise<T[]> {
    const results: T[] = [];
    for await (const page of this.pages(resource, options)) for (const one of page) results.push(one);
    return results;
  }

  async *pages<T = KubeObject>(resource: ResourceRef, options: ListOptions<T>): AsyncGenerator<T[]> {
    let continueToken: string | undefined;
    do {
      const page = await this.page(resource, options, continueToken);
      continueToken = page.continueToken;
      yield page.kept;
    } while (continueToken);
  }

  /**
   * One page, kept as `options` says. Its own call, so the page as read (500 objects) is garbage
   * before the caller gets what was kept: a reader that holds a page across other requests would
   * otherwise carry the whole page into the old generation with it.
   */
  private async page<T>(resource: ResourceRef, options: ListOptions<T>, continueToken: string | undefined) {
    const { project } = options;
    // A metadata list's items are PartialObjectMetadata; the caller names T for them.
    const keep = project === 'metadata' ? (object: KubeObject) => object as T : project;
    const metadataOnly = project === 'metadata' || options.metadataOnly === true;
    const request: HttpRequest = {
      method: 'GET',
      path: resourcePath(resource, {
        namespace: options.namespace,
        query: {
          labelSelector: options.labelSelector,
          fieldSelector: options.fieldSelector,
          limit: String(options.pageSize ?? DEFAULT_PAGE_SIZE),
          continue: continueToken,
        },
      }),
      ...(metadataOnly ? { accept: METADATA_LIST_ACCEPT } : {}),
      verb: 'list',
      resource: resource.plural,
    };
    const page = await withRetries(() => this.call<ListPage>(request), this.reads);
    const kept: T[] = [];
    for (const item of page.items ?? []) {
      const one = keep(item);
      if (one !== undefined) kept.push(one);
    }
    return { kept, continueToken: page.metadata?.continue || undefined };
  }

  evict(namespace: string, name: string, options: EvictOptions): Promise<EvictionResult> {
    const dryRun = options.dryRun ? ['All'] : undefined;
    const request: HttpRequest = {
      method: 'POST',
      path: resourcePath(RESOURCES.pods, {
        namespace,
        name,
        subresource: 'eviction',
        query: { dryRun: dryRun?.[0] },
      }),
      body: {
        apiVersion: 'policy/v1',
        kind: 'Eviction',
        metadata: { name, namespace },
        deleteOptions: { preconditions: { uid: options.uid }, ...(dryRun ? { dryRun } : {}) },
      },
      verb: 'create',
      resource: 'pods/eviction',
    };
    return withRetries(async (): Promise<EvictionResult> => {
      const response = await this.options.send(request);
      if (response.status === 200 || response.status === 201) return { outcome: 'evicted' };
      if (response.status === 404) return { outcome: 'gone' };
      if (response.status === 409) return { outcome: 'uid-changed' };
      const budget = response.status === 429 ? disruptionBudgetMessage(response.body) : undefined;
      if (budget !== undefined) return { outcome: 'blocked-by-pdb', message: budget };
      throw errorFromResponse(request, response.status, response.body, response.retryAfter);
    }, this.writes);
  }

  async deletePod(namespace: string, name: string, uid: string): Promise<void> {
    const request: HttpRequest = {
      method: 'DELETE',
      path: resourcePath(RESOURCES.pods, { namespace, name }),
      body: { apiVersion: 'v1', kind: 'DeleteOptions', preconditions: { uid } },
      verb: 'delete',
      resource: 'pods',
    };
    await withRetries(() => this.call<unknown>(request), this.writes);
  }

  exec(
    namespace: string,
    pod: string,
    container: string,
    command: string[],
    options: ExecOptions = {},
  ): Promise<ExecResult> {
    const { kc, connection } = this.options;
    return withRetries(
      () => execInPod(kc, { namespace, pod, container, command }, { ...options, connection }),
      this.execs,
      options.signal,
    );
  }
}
