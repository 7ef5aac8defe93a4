import { qualifiedName, type ResourceType } from './resources.ts';

/** A `meta.k8s.io/v1` Status body, as kube-apiserver sends for every error. */
export interface StatusBody {
  kind: 'Status';
  apiVersion: 'v1';
  metadata: Record<string, never>;
  status: 'Success' | 'Failure';
  message?: string;
  reason?: string;
  details?: {
    name?: string;
    group?: string;
    kind?: string;
    uid?: string;
    causes?: { reason?: string; message?: string; field?: string }[];
    retryAfterSeconds?: number;
  };
  code: number;
}

/** An error the API answers with a Status body and its HTTP code. */
export class ApiError extends Error {
  constructor(
    readonly code: number,
    readonly reason: string,
    message: string,
    readonly details?: StatusBody['details'],
  ) {
    super(message);
  }

  toStatus(): StatusBody {
    return {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: this.message,
      reason: this.reason,
      ...(this.details ? { details: this.details } : {}),
      code: this.code,
    };
  }
}

export function successStatus(code = 200): StatusBody {
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code };
}

function describe(type: ResourceType, name: string): StatusBody['details'] {
  return { name, ...(type.group ? { group: type.group } : {}), kind: type.plural };
}

export const errors = {
  notFound: (type: ResourceType, name: string) =>
    new ApiError(404, 'NotFound', `${qualifiedName(type)} "${name}" not found`, describe(type, name)),
  namespaceNotFound: (namespace: string) =>
    new ApiError(404, 'NotFound', `namespaces "${namespace}" not found`, {
      name: namespace,
      kind: 'namespaces',
    }),
  alreadyExists: (type: ResourceType, name: string) =>
    new ApiError(
      409,
      'AlreadyExists',
      `${qualifiedName(type)} "${name}" already exists`,
      describe(type, name),
    ),
  conflict: (type: ResourceType, name: string, why: string) =>
    new ApiError(
      409,
      'Conflict',
      `Operation cannot be fulfilled on ${qualifiedName(type)} "${name}": ${why}`,
      describe(type, name),
    ),
  /** kube-apiserver's delete precondition check names the Kind, not the resource (rest.BeforeDelete). */
  preconditionFailed: (
    type: ResourceType,
    name: string,
    field: 'UID' | 'ResourceVersion',
    wanted: string,
    actual: string,
  ) =>
    new ApiError(
      409,
      'Conflict',
      `Operation cannot be fulfilled on ${type.kind} "${name}": the ${field} in the precondition (${wanted}) does not match the ${field} in record (${actual}). The object might have been deleted and then recreated`,
      { name, ...(type.group ? { group: type.group } : {}), kind: type.kind },
    ),
  forbidden: (type: ResourceType, name: string | undefined, why: string) =>
    new ApiError(403, 'Forbidden', `${qualifiedName(type)}${name ? ` "${name}"` : ''} is forbidden: ${why}`, {
      ...(name ? { name } : {}),
      ...(type.group ? { group: type.group } : {}),
      kind: type.plural,
    }),
  forbiddenPath: (why: string) => new ApiError(403, 'Forbidden', `forbidden: ${why}`),
  /** kube-apiserver's answer for a path it does not serve. */
  notFoundPath: () => new ApiError(404, 'NotFound', 'the server could not find the requested resource', {}),
  timeout: (message: string) =>
    new ApiError(504, 'Timeout', message, {
      causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }],
      retryAfterSeconds: 1,
    }),
  /** kube-apiserver's answer when a request outlives its deadline (it may have been carried out). */
  requestTimeout: () =>
    new ApiError(
      504,
      'Timeout',
      'Timeout: request did not complete within requested timeout - context deadline exceeded',
      {},
    ),
  unprocessable: (message: string) => new ApiError(422, 'Invalid', message),
  badRequest: (message: string) => new ApiError(400, 'BadRequest', message),
  invalid: (type: ResourceType, name: string, field: string, message: string) =>
    new ApiError(422, 'Invalid', `${type.kind} "${name}" is invalid: ${field}: ${message}`, {
      ...describe(type, name),
      kind: type.kind,
      causes: [{ reason: 'FieldValueInvalid', message, field }],
    }),
  expired: (message: string) => new ApiError(410, 'Expired', message),
  methodNotAllowed: (message = 'the server does not allow this method on the requested resource') =>
    new ApiError(405, 'MethodNotAllowed', message),
  notAcceptable: (message: string) => new ApiError(406, 'NotAcceptable', message),
  unsupportedMediaType: (contentType: string) =>
    new ApiError(
      415,
      'UnsupportedMediaType',
      `the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, application/merge-patch+json, application/strategic-merge-patch+json, application/json-patch+json, got ${contentType}`,
    ),
  unauthorized: () => new ApiError(401, 'Unauthorized', 'Unauthorized'),
  internal: (message: string) =>
    new ApiError(500, 'InternalError', `Internal error occurred: ${message}`, {
      causes: [{ message }],
    }),
  tooManyRequests: (message: string, retryAfterSeconds: number) =>
    new ApiError(429, 'TooManyRequests', message, { retryAfterSeconds }),
};
