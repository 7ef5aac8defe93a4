import { type IncomingMessage, ServerResponse, STATUS_CODES } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import type { TLSSocket } from 'node:tls';
import type { SimCluster } from '../cluster.ts';
import { indexPodsByNode } from '../exec/facts/pods-by-node.ts';
import { ExecTimeline } from '../exec/timeline.ts';
import { handleExecUpgrade } from '../exec/websocket.ts';
import type { Fault, Faults, RequestKind } from '../faults.ts';
import type { Pod } from '../objects.ts';
import { ApiError, errors } from '../status.ts';
import type { Authenticator } from './auth.ts';
import { parseObject, readBody } from './body.ts';
import type { HandlerContext } from './context.ts';
import { apiGroup, apiGroupList, apiResourceList, apiVersions, KUBERNETES_VERSION } from './discovery.ts';
import { handleEviction } from './handlers/eviction.ts';
import { handleLogs } from './handlers/logs.ts';
import { handleGet, handleList } from './handlers/read.ts';
import { handleWatch } from './handlers/watch.ts';
import { handleCreate, handleDelete, handlePatch, handleUpdate } from './handlers/write.ts';
import { parseRequest, type ResourceRequest } from './request.ts';
import { sendError, sendJson } from './respond.ts';

export interface ApiServerOptions {
  cluster: SimCluster;
  auth: Authenticator;
  faults: Faults;
  tls: { certPem: string; keyPem: string };
  host?: string;
  /** 0 (the default) picks a free port. */
  port?: number;
}

export interface ApiServer {
  url: string;
  port: number;
  /** TLS handshakes so far: full ones, and those that resumed a session from a ticket (as Go's TLS server issues). */
  tlsHandshakes(): TlsHandshakes;
  close(): Promise<void>;
}

export interface TlsHandshakes {
  full: number;
  resumed: number;
}

const PUBLIC_PATHS = new Set(['/healthz', '/livez', '/readyz', '/version']);

/** An injected fault that answers nothing: the connection is dropped. */
class DroppedConnection extends Error {}

function injectedFailure(fault: Fault): Error {
  switch (fault.errorCode) {
    case 429:
      return errors.tooManyRequests(
        'Too many requests, please try again later.',
        fault.retryAfterSeconds ?? 1,
      );
    case 504:
      return errors.requestTimeout();
    case 'reset':
      return new DroppedConnection('injected connection reset');
    default:
      return errors.internal('injected fault');
  }
}

/**
 * Applies the injected latency and failure for this kind of request; throws the injected failure.
 * A fault `afterApply` carries the request out first (`apply`, its answer discarded).
 */
async function injectFault(faults: Faults, kind: RequestKind, apply?: () => Promise<void>): Promise<void> {
  const fault = faults.get(kind);
  if (!fault) return;
  if (fault.latencyMs) await sleep(fault.latencyMs);
  if (!faults.shouldFail(kind)) return;
  if (fault.afterApply && apply) await apply();
  throw injectedFailure(fault);
}

function discovery(path: string, host: string): unknown {
  if (path === '/api') return apiVersions(host);
  if (path === '/apis') return apiGroupList();
  const core = /^\/api\/([^/]+)$/.exec(path);
  if (core) return apiResourceList('', core[1] as string);
  const grouped = /^\/apis\/([^/]+)(?:\/([^/]+))?$/.exec(path);
  if (grouped)
    return grouped[2] ? apiResourceList(grouped[1] as string, grouped[2]) : apiGroup(grouped[1] as string);
  return undefined;
}

function dispatch(
  request: ResourceRequest,
  method: string,
): ((ctx: HandlerContext) => Promise<void>) | undefined {
  const { name, subresource, verb } = request;
  if (subresource === 'eviction') return method === 'POST' ? handleEviction : undefined;
  if (subresource === 'log') return method === 'GET' ? handleLogs : undefined;
  if (subresource === 'status') return method === 'GET' ? handleGet : undefined;
  if (subresource) return undefined;
  switch (verb) {
    case 'get':
      return handleGet;
    case 'list':
      return handleList;
    case 'watch':
      return handleWatch;
    case 'create':
      return name ? undefined : handleCreate;
    case 'update':
      return handleUpdate;
    case 'patch':
      return handlePatch;
    case 'delete':
      return handleDelete;
    default:
      return undefined;
  }
}

function handlerContext(
  options: ApiServerOptions,
  req: IncomingMessage,
  res: ServerResponse,
  request: ResourceRequest,
): HandlerContext {
  let raw: Promise<string> | undefined;
  const rawText = () => {
    raw ??= readBody(req);
    return raw;
  };
  return {
    cluster: options.cluster,
    faults: options.faults,
    req,
    res,
    request,
    body: async () => parseObject(await rawText()),
    rawBody: async () => ({ contentType: req.headers['content-type'] ?? '', text: await rawText() }),
  };
}

async function handleRequest(
  options: ApiServerOptions,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const parsed = parseRequest(req);
  if (parsed.scope === 'path') {
    if (parsed.path === '/version') return sendJson(res, 200, KUBERNETES_VERSION);
    if (PUBLIC_PATHS.has(parsed.path)) {
      res.writeHead(200, { 'Content-Type': 'text/plain' });
      res.end('ok');
      return;
    }
    options.auth.authenticate(req.headers.authorization);
    await injectFault(options.faults, 'discovery');
    const document = discovery(parsed.path, req.headers.host ?? '');
    if (!document) throw errors.notFoundPath();
    return sendJson(res, 200, document);
  }
  const request = parsed.resource;
  const grant = options.auth.authenticate(req.headers.authorization);
  options.auth.authorize(grant, {
    verb: request.verb,
    type: request.type,
    ...(request.subresource ? { subresource: request.subresource } : {}),
    ...(request.namespace ? { namespace: request.namespace } : {}),
    ...(request.name ? { name: request.name } : {}),
  });
  if (request.subresource === 'exec') throw errors.badRequest('Upgrade request required');
  const handler = dispatch(request, req.method ?? 'GET');
  if (!handler) throw errors.methodNotAllowed();
  const context = handlerContext(options, req, res, request);
  // A response on no socket: the handler's answer goes nowhere.
  await injectFault(options.faults, request.kind, () =>
    handler({ ...context, res: new ServerResponse(req) }),
  );
  await handler(context);
}

function writeUpgradeError(socket: Duplex, error: ApiError): void {
  const body = JSON.stringify(error.toStatus());
  socket.end(
    `HTTP/1.1 ${error.code} ${STATUS_CODES[error.code] ?? 'Error'}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof Error && error.message === 'request entity too large') {
    return new ApiError(413, 'RequestEntityTooLarge', 'Request entity too large: limit is 3145728');
  }
  return errors.internal(error instanceof Error ? error.message : String(error));
}

/** The pod and container an exec upgrade targets, checked as kubelet's exec path checks them. */
function execTarget(options: ApiServerOptions, request: ResourceRequest): { pod: Pod; container: string } {
  const pod = options.cluster.store.mustGet<Pod>(request.type, request.namespace, request.name as string);
  const names = pod.spec.containers.map((c) => c.name);
  const container = request.query.get('container') ?? (names.length === 1 ? names[0] : undefined);
  if (!container) {
    throw errors.badRequest(
      `a container name must be specified for pod ${pod.metadata.name}, choose one of: [${names.join(' ')}]`,
    );
  }
  if (!names.includes(container))
    throw errors.badRequest(`container ${container} is not valid for pod ${pod.metadata.name}`);
  if (pod.status?.phase !== 'Running') {
    throw errors.badRequest(`unable to upgrade connection: container not found ("${container}")`);
  }
  return { pod, container };
}

async function handleUpgrade(
  options: ApiServerOptions,
  req: IncomingMessage,
  socket: Duplex,
  head: Buffer,
): Promise<void> {
  const timeline = new ExecTimeline();
  const parsed = parseRequest(req);
  if (parsed.scope !== 'resource' || parsed.resource.subresource !== 'exec') throw errors.notFoundPath();
  const request = parsed.resource;
  const grant = options.auth.authenticate(req.headers.authorization);
  options.auth.authorize(grant, {
    verb: 'create',
    type: request.type,
    subresource: 'exec',
    ...(request.namespace ? { namespace: request.namespace } : {}),
    ...(request.name ? { name: request.name } : {}),
  });
  await injectFault(options.faults, 'exec');
  timeline.mark('latency served');
  const { pod, container } = execTarget(options, request);
  const flag = (key: string) => request.query.get(key) === 'true' || request.query.get(key) === '1';
  if (!flag('stdin') && !flag('stdout') && !flag('stderr')) {
    throw errors.badRequest('you must specify at least 1 of stdin, stdout, stderr');
  }
  const fault = options.faults.get('exec');
  handleExecUpgrade(
    req,
    socket,
    head,
    {
      pod,
      container,
      command: request.query.getAll('command'),
      stdin: flag('stdin'),
      stdout: flag('stdout'),
      stderr: flag('stderr'),
      tty: flag('tty'),
    },
    { cluster: options.cluster, timeline, ...(fault ? { fault } : {}) },
  );
}

/** Starts the simulated kube-apiserver over HTTPS. */
export async function startApiServer(options: ApiServerOptions): Promise<ApiServer> {
  // The exec path's index, made before the first request rather than during one (see podsOnNode).
  indexPodsByNode(options.cluster.store);
  const server: Server = createServer({ cert: options.tls.certPem, key: options.tls.keyPem }, (req, res) => {
    handleRequest(options, req, res).catch((error: unknown) =>
      error instanceof DroppedConnection ? res.destroy() : sendError(res, toApiError(error)),
    );
  });
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    handleUpgrade(options, req, socket, head).catch((error: unknown) =>
      error instanceof DroppedConnection ? socket.destroy() : writeUpgradeError(socket, toApiError(error)),
    );
  });
  const handshakes: TlsHandshakes = { full: 0, resumed: 0 };
  server.on('secureConnection', (socket: TLSSocket) => {
    if (socket.isSessionReused()) handshakes.resumed++;
    else handshakes.full++;
  });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://${host.includes(':') ? `[${host}]` : host}:${port}`,
    port,
    tlsHandshakes: () => ({ ...handshakes }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
