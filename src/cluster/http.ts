import { type ClientRequest, request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { Socket } from 'node:net';
import { TLSSocket } from 'node:tls';
import type { KubeConfig } from '@kubernetes/client-node';
import type { ConnectionOptions } from './connection.ts';
import type { Operation } from './status.ts';
import { connectionProblem } from './tls-error.ts';
import { KubeError } from './types.ts';

export interface HttpRequest extends Operation {
  method: 'GET' | 'POST' | 'DELETE';
  /** Path and query, relative to the cluster's server URL. */
  path: string;
  accept?: string;
  /** Sent as JSON. */
  body?: unknown;
}

export interface HttpResponse {
  status: number;
  retryAfter?: string;
  /** Parsed JSON, or the text when the body is not JSON. */
  body: unknown;
}

export interface HttpOptions {
  /** TLS and credentials per request (clusterConnection), so refreshed (EKS) tokens are used. */
  connection: ConnectionOptions;
  timeoutMs: number;
}

export type SendRequest = (request: HttpRequest) => Promise<HttpResponse>;

/** A response body: parsed JSON when the server says it is JSON, else the text (a proxy's page, a bare 403). */
export function decodeBody(response: IncomingMessage, bytes: Buffer): unknown {
  const text = bytes.toString('utf8');
  if (!(response.headers['content-type'] ?? '').includes('json')) return text;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** A connection is up once TCP connected and, over TLS, this side finished its handshake. */
function connectionUp(socket: Socket): boolean {
  if (socket.connecting) return false;
  return !(socket instanceof TLSSocket) || socket.getFinished() !== undefined;
}

/**
 * Whether a request's bytes may have reached the server: only once its connection is up (a reused
 * keep-alive one already is). Until then node holds them, so a failure before proves the server
 * never saw the request.
 */
function connectionWatch(outgoing: ClientRequest): () => boolean {
  let up = false;
  outgoing.once('socket', (socket: Socket) => {
    if (connectionUp(socket)) up = true;
    else socket.once(socket instanceof TLSSocket ? 'secureConnect' : 'connect', () => (up = true));
  });
  return () => up;
}

/**
 * Sends requests with node's http(s), so the facade controls Accept headers and timeouts. Every
 * request has a deadline covering connect, headers and body; a missed deadline is a `timeout`
 * error, a failed connection `unavailable`, each saying whether the request could have reached the
 * server (`unsent`). Any HTTP status resolves: callers classify it.
 */
export function httpSender(kc: KubeConfig, options: HttpOptions): SendRequest {
  return async (req) => {
    const server = kc.getCurrentCluster()?.server;
    if (!server)
      throw new KubeError(
        'invalid',
        req.verb,
        req.resource,
        'the kubeconfig names no cluster server',
        undefined,
        undefined,
        true,
      );
    const url = new URL(`${server.replace(/\/+$/, '')}${req.path}`);
    const connection = await options.connection();
    const payload = req.body === undefined ? undefined : JSON.stringify(req.body);
    const send = url.protocol === 'http:' ? httpRequest : httpsRequest;
    return new Promise<HttpResponse>((resolve, reject) => {
      const fail = (kind: 'timeout' | 'unavailable', detail: string) => {
        clearTimeout(deadline);
        reject(new KubeError(kind, req.verb, req.resource, detail, undefined, undefined, !reached()));
      };
      const outgoing = send(
        url,
        {
          ...connection,
          method: req.method,
          headers: {
            ...connection.headers,
            Accept: req.accept ?? 'application/json',
            // An explicit length: node sends a DELETE body neither chunked nor sized otherwise.
            ...(payload === undefined
              ? {}
              : { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(payload) }),
          },
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('error', (error) => fail('unavailable', error.message));
          response.on('end', () => {
            clearTimeout(deadline);
            const retryAfter = response.headers['retry-after'];
            resolve({
              status: response.statusCode ?? 0,
              ...(retryAfter === undefined ? {} : { retryAfter }),
              body: decodeBody(response, Buffer.concat(chunks)),
            });
          });
        },
      );
      const reached = connectionWatch(outgoing);
      // A promise settles once: whatever the destroyed request reports after this is ignored.
      const deadline = setTimeout(() => {
        fail('timeout', `no answer within ${options.timeoutMs} ms`);
        outgoing.destroy();
      }, options.timeoutMs);
      outgoing.on('error', (error) => fail('unavailable', connectionProblem(error, url.origin)));
      outgoing.end(payload);
    });
  };
}
