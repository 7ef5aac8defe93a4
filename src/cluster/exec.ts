import type { IncomingMessage } from 'node:http';
import type { KubeConfig, V1Status } from '@kubernetes/client-node';
import type WebSocket from 'ws';
import type { ConnectionOptions } from './connection.ts';
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

/** kube-apiserver's exec subprotocols, newest first: v5 adds a close channel, v4 a JSON status. */
const PROTOCOLS = ['v5.channel.k8s.io', 'v4.channel.k8s.io'];
/** The channel each frame's first byte names. */
const STDOUT = 1;
const STDERR = 2;
const STATUS = 3;

/** The exec URL of a container, with the command as repeated `command` parameters. */
function execUrl(kc: KubeConfig, target: ExecTarget): string {
  const server = kc.getCurrentCluster()?.server ?? '';
  const query = new URLSearchParams({ container: target.container, stdout: 'true', stderr: 'true' });
  for (const part of target.command) query.append('command', part);
  const path = `/api/v1/namespaces/${encodeURIComponent(target.namespace)}/pods/${encodeURIComponent(target.pod)}/exec`;
  return `${server.replace(/^http/, 'ws').replace(/\/+$/, '')}${path}?${query}`;
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

/** The frames as one buffer; a single frame as it is, not copied (an output can be tens of MB). */
const joined = (frames: Buffer[]) => (frames.length === 1 ? (frames[0] as Buffer) : Buffer.concat(frames));

function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message;
  const message = (error as { message?: unknown } | undefined)?.message;
  return typeof message === 'string' ? message : String(error);
}

/**
 * `ws`, loaded at the first exec: most runs never exec (the scan reads lists), and a run's first
 * request should not wait for a WebSocket client it may never use.
 */
let loadingWebSocket: Promise<typeof WebSocket> | undefined;
const webSocketClass = () => {
  loadingWebSocket ??= import('ws').then((module) => module.default);
  return loadingWebSocket;
};

/**
 * Runs a command over kube-apiserver's WebSocket exec (v5/v4 channel protocols) and collects its
 * output as bytes and its exit code from the final Status. The upgrade has its own timeout, then
 * the command has one; a connection that ends without a Status is `unavailable`, since nobody
 * knows how the command ended. Once `signal` aborts, the connection is closed (the API server
 * then ends the command) and the promise rejects with the signal's reason.
 */
export function execInPod(
  kc: KubeConfig,
  target: ExecTarget,
  options: ExecOptions & { connection: ConnectionOptions },
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
    const stop = () =>
      settle(() => {
        reject(options.signal?.reason);
        socket?.terminate();
      });
    const settle = (action: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', stop);
      action();
    };
    const fail = (error: unknown) =>
      settle(() => {
        reject(error);
        socket?.terminate();
      });
    const deliver = (onStdout: (chunk: Buffer) => void, chunk: Buffer) => {
      if (settled) return;
      try {
        onStdout(chunk);
      } catch (error) {
        fail(error);
      }
    };
    let timer = setTimeout(
      () => fail(failure('timeout', `WebSocket not upgraded within ${handshakeTimeoutMs} ms`)),
      handshakeTimeoutMs,
    );
    if (options.signal?.aborted) return stop();
    options.signal?.addEventListener('abort', stop, { once: true });

    // The kubeconfig's TLS and credentials (clusterConnection: one agent, so TLS sessions resume);
    // the socket is ours, so the upgrade can be timed out and its refusal read.
    Promise.all([options.connection(), webSocketClass()])
      .then(([connection, WebSocket]) => {
        if (settled) return;
        // kube-apiserver offers no compression on exec; not offering it spares a header per exec.
        const ws = new WebSocket(execUrl(kc, target), PROTOCOLS, {
          ...(connection as WebSocket.ClientOptions),
          perMessageDeflate: false,
        });
        socket = ws;
        ws.on('unexpected-response', (_request, response) => {
          refusal = refusalError(response);
          void refusal.then((error) => fail(error)).finally(() => ws.terminate());
        });
        ws.on('open', () => {
          clearTimeout(timer);
          timer = setTimeout(
            () => fail(failure('timeout', `no exit status within ${commandTimeoutMs} ms`)),
            commandTimeoutMs,
          );
        });
        ws.on('message', (data: Buffer, isBinary: boolean) => {
          const frame = isBinary ? data : Buffer.from(data);
          const channel = frame[0];
          const payload = frame.subarray(1);
          if (channel === STDOUT) {
            if (!options.onStdout) stdout.push(payload);
            else if (payload.length > 0) deliver(options.onStdout, payload);
          } else if (channel === STDERR) stderr.push(payload);
          else if (channel === STATUS) {
            let status: V1Status;
            try {
              status = JSON.parse(payload.toString('utf8')) as V1Status;
            } catch {
              return fail(failure('unavailable', 'the exit status frame is not JSON'));
            }
            settle(() => {
              resolve({
                stdout: joined(stdout),
                stderr: joined(stderr),
                ...exitFromStatus(status),
              });
              // The Status is the last frame: nothing more to read, so no closing handshake to wait for.
              ws.terminate();
            });
          }
        });
        // After the Status (or a refusal) these are the connection going away: nothing to report.
        ws.on('close', () => {
          if (!refusal && !settled)
            fail(failure('unavailable', 'connection closed before the command reported its exit status'));
        });
        ws.on('error', (error) => {
          if (!refusal && !settled) fail(failure('unavailable', messageOf(error)));
        });
      })
      .catch((error: unknown) => fail(failure('unavailable', messageOf(error))));
  });
}
