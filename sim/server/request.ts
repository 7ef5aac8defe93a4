import type { IncomingMessage } from 'node:http';
import type { RequestKind } from '../faults.ts';
import { findResource, type ResourceType } from '../resources.ts';
import { errors } from '../status.ts';

/** A request for a resource, parsed from its path the way kube-apiserver's RequestInfo does. */
export interface ResourceRequest {
  type: ResourceType;
  namespace?: string;
  name?: string;
  subresource?: string;
  /** The RBAC verb. */
  verb: string;
  /** The fault-injection bucket. */
  kind: RequestKind;
  query: URLSearchParams;
}

export type ParsedRequest =
  | { scope: 'resource'; resource: ResourceRequest }
  | { scope: 'path'; path: string };

function verbOf(
  method: string,
  name: string | undefined,
  subresource: string | undefined,
  watch: boolean,
): string {
  if (subresource === 'exec' || subresource === 'eviction') return 'create';
  switch (method) {
    case 'GET':
    case 'HEAD':
      return name ? (watch ? 'watch' : 'get') : watch ? 'watch' : 'list';
    case 'POST':
      return 'create';
    case 'PUT':
      return 'update';
    case 'PATCH':
      return 'patch';
    case 'DELETE':
      return name ? 'delete' : 'deletecollection';
    default:
      return method.toLowerCase();
  }
}

function kindOf(verb: string, subresource: string | undefined): RequestKind {
  if (subresource === 'exec') return 'exec';
  if (subresource === 'eviction') return 'eviction';
  if (subresource === 'log') return 'log';
  switch (verb) {
    case 'get':
    case 'list':
    case 'watch':
    case 'create':
    case 'update':
    case 'patch':
    case 'delete':
      return verb;
    default:
      return 'delete';
  }
}

/** Splits `/api/v1/...` and `/apis/<group>/<version>/...` into a resource request; anything else is a path. */
export function parseRequest(req: IncomingMessage): ParsedRequest {
  const url = new URL(req.url ?? '/', 'https://sim.invalid');
  const segments = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
  let group: string;
  let version: string;
  let rest: string[];
  if (segments[0] === 'api' && segments.length >= 3) {
    group = '';
    version = segments[1] as string;
    rest = segments.slice(2);
  } else if (segments[0] === 'apis' && segments.length >= 4) {
    group = segments[1] as string;
    version = segments[2] as string;
    rest = segments.slice(3);
  } else {
    return { scope: 'path', path: url.pathname };
  }
  let namespace: string | undefined;
  if (rest[0] === 'namespaces' && rest.length >= 3) {
    namespace = rest[1];
    rest = rest.slice(2);
  }
  const [plural, name, subresource, ...extra] = rest as [string, string?, string?, ...string[]];
  const type = findResource(group, version, plural);
  if (!type || extra.length > 0) {
    throw errors.notFoundPath();
  }
  if (!type.namespaced && namespace) throw errors.notFoundPath();
  const watch = url.searchParams.get('watch') === 'true' || url.searchParams.get('watch') === '1';
  const verb = verbOf(req.method ?? 'GET', name, subresource, watch);
  return {
    scope: 'resource',
    resource: {
      type,
      ...(namespace !== undefined ? { namespace } : {}),
      ...(name !== undefined ? { name } : {}),
      ...(subresource !== undefined ? { subresource } : {}),
      verb,
      kind: kindOf(verb, subresource),
      query: url.searchParams,
    },
  };
}
