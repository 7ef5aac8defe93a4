import { KubeError, type KubeErrorKind } from './types.ts';

/** A `meta.k8s.io/v1` Status, as the API server sends with every error (and some successes). */
export interface StatusBody {
  kind?: string;
  status?: string;
  message?: string;
  reason?: string;
  code?: number;
  details?: {
    causes?: { reason?: string; message?: string; field?: string }[];
    retryAfterSeconds?: number;
  };
}

/** What the facade names in an error: the RBAC verb and resource[/subresource] of the call. */
export interface Operation {
  verb: string;
  resource: string;
}

export function isStatusBody(body: unknown): body is StatusBody {
  return typeof body === 'object' && body !== null && (body as StatusBody).kind === 'Status';
}

/** The error kind for an HTTP status code; anything unexpected is the caller's request being wrong. */
export function errorKindFor(code: number): KubeErrorKind {
  switch (code) {
    case 401:
      return 'unauthorized';
    case 403:
      return 'forbidden';
    case 404:
      return 'not-found';
    case 408:
      return 'timeout';
    // 410 Expired: the list snapshot was compacted away, a conflict with the server's history.
    case 409:
    case 410:
      return 'conflict';
    case 429:
      return 'throttled';
    default:
      return code >= 500 ? 'unavailable' : 'invalid';
  }
}

/** Seconds from a Retry-After header (delta-seconds form; the API server never sends a date). */
function retryAfterSeconds(header: string | undefined, body: StatusBody | undefined): number | undefined {
  const fromHeader = header === undefined ? Number.NaN : Number(header);
  if (Number.isFinite(fromHeader) && fromHeader >= 0) return fromHeader;
  return body?.details?.retryAfterSeconds;
}

/** A short detail from a body that is not a Status (a proxy's HTML page, a bare 403). */
function plainDetail(body: unknown): string {
  return typeof body === 'string' ? body.trim().slice(0, 200) : '';
}

/** The typed error for a failed response, its message taken from the Status when there is one. */
export function errorFromResponse(
  operation: Operation,
  code: number,
  body: unknown,
  retryAfterHeader?: string,
): KubeError {
  const status = isStatusBody(body) ? body : undefined;
  const kind = errorKindFor(code);
  return new KubeError(
    kind,
    operation.verb,
    operation.resource,
    status?.message ?? plainDetail(body),
    code,
    kind === 'throttled' ? retryAfterSeconds(retryAfterHeader, status) : undefined,
  );
}
