import type { IncomingMessage } from 'node:http';
import { Writable } from 'node:stream';
import { Exec, type KubeConfig } from '@kubernetes/client-node';
// Not re-exported by the package index; its socket factory is how we reach the socket before it opens.
import { WebSocketHandler } from '@kubernetes/client-node/dist/web-socket-handler.js';
import WebSocket from 'ws';
import { exitFromStatus } from './exec-status.ts';
import { decodeBody } from './http.ts';
import { errorFromResponse } from './status.ts';
import { type ExecOptions, type ExecResult, KubeError } from './types.ts';

const EXEC = { verb: 'create', resource: 'pods/exec' } as const;
const DEFAULT_HANDSHAKE_TIMEOUT_MS = 5_000;
const DEFAULT_COMMAND_TIMEOUT_MS = 20_000;

export interface ExecTarget {
  namespace: string;
  pod: string;
  container: string;
  command: string[];
}

/** Keeps a stream's chunks as bytes: tool output is not always UTF-8. */
function byteSink(chunks: Buffer[]): Writable {
  return new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk);
      done();
    },
  });
}

/** The typed error for an upgrade the server answered with an HTTP error (403, 404, 429...). */
function refusalError(response: IncomingMessage): Promise<KubeError> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const done = () => {
      const body = decodeBody(response, Buffer.concat(chunks));
      resolve(errorFromResponse(EXEC, response.statusCode ?? 0, body, response.headers['retry-after']));
    };
    response.on('data', (chunk: Buffer) => chunks.push(chunk));
    response.on('end', done);
    response.on('error', done);
  });
}

function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message;
  const message = (error as { message?: unknown } | undefined)?.message;
  return typeof message === 'string' ? message : String(error);
}

/**
 * Runs a command through client-node's WebSocket exec (v5/v4 channel protocols) and collects its
 * output as bytes and its exit code from the final Status. The upgrade has its own timeout, then
 * the command has one; a connection that ends without a Status is `unavailable`, since nobody
 * knows how the command ended.
 */
export function execInPod(
  kc: KubeConfig,
  target: ExecTarget,
  options: ExecOptions & { token?: string },
): Promise<ExecResult> {
  const handshakeTimeoutMs = options.handshakeTimeoutMs ?? DEFAULT_HANDSHAKE_TIMEOUT_MS;
  const commandTimeoutMs = options.timeoutMs ?? DEFAULT_COMMAND_TIMEOUT_MS;
  const failure = (kind: 'timeout' | 'unavailable', detail: string) =>
    new KubeError(kind, EXEC.verb, EXEC.resource, detail);

  return new Promise<ExecResult>((resolve, reject) => {
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    let socket: WebSocket | undefined;
    let refusal: Promise<KubeError> | undefined;
    let settled = false;
    const settle = (action: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      action();
    };
    const fail = (error: KubeError) =>
      settle(() => {
        reject(error);
        socket?.terminate();
      });

    // client-node gives the socket back only once it is open; its factory hands it over earlier,
    // so the upgrade can be timed out, its refusal read, and the token set per call.
    const handler = new WebSocketHandler(kc, (uri, protocols, socketOptions) => {
      const headers = options.token
        ? { ...socketOptions.headers, Authorization: `Bearer ${options.token}` }
        : socketOptions.headers;
      const ws = new WebSocket(uri, protocols, { ...socketOptions, headers });
      ws.on('unexpected-response', (_request, response) => {
        refusal = refusalError(response);
        void refusal.finally(() => ws.terminate());
      });
      socket = ws;
      return ws;
    });

    let timer = setTimeout(
      () => fail(failure('timeout', `WebSocket not upgraded within ${handshakeTimeoutMs} ms`)),
      handshakeTimeoutMs,
    );
    new Exec(kc, handler)
      .exec(
        target.namespace,
        target.pod,
        target.container,
        target.command,
        byteSink(stdout),
        byteSink(stderr),
        null,
        false,
        (status) =>
          settle(() =>
            resolve({
              stdout: Buffer.concat(stdout),
              stderr: Buffer.concat(stderr),
              ...exitFromStatus(status),
            }),
          ),
      )
      .then((ws) => {
        if (settled) return;
        clearTimeout(timer);
        timer = setTimeout(
          () => fail(failure('timeout', `no exit status within ${commandTimeoutMs} ms`)),
          commandTimeoutMs,
        );
        ws.on('close', () =>
          fail(failure('unavailable', 'connection closed before the command reported its exit status')),
        );
      })
      .catch(async (error: unknown) =>
        fail(refusal ? await refusal : failure('unavailable', messageOf(error))),
      );
  });
}
