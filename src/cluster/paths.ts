import type { ResourceRef } from './types.ts';

export interface PathParts {
  namespace?: string | undefined;
  name?: string;
  subresource?: string;
  query?: Record<string, string | undefined>;
}

/** The REST path of a resource: `/api/v1/...` for the core group, `/apis/<group>/<version>/...` otherwise. */
export function resourcePath(resource: ResourceRef, parts: PathParts = {}): string {
  const segments = [
    resource.group === '' ? `/api/${resource.version}` : `/apis/${resource.group}/${resource.version}`,
  ];
  if (resource.namespaced && parts.namespace)
    segments.push('namespaces', encodeURIComponent(parts.namespace));
  segments.push(resource.plural);
  if (parts.name !== undefined) segments.push(encodeURIComponent(parts.name));
  if (parts.subresource) segments.push(parts.subresource);
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(parts.query ?? {}))
    if (value !== undefined) query.set(key, value);
  const search = query.toString();
  return `${segments.join('/')}${search ? `?${search}` : ''}`;
}
