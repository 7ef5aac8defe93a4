import { request } from 'node:https';
import { Writable } from 'node:stream';
import { Exec, KubeConfig, type V1Status } from '@kubernetes/client-node';
import type { Sim } from '../../sim/index.ts';

/** A client-node KubeConfig for the simulator, as a user would load it from the written kubeconfig. */
export function kubeConfigFor(sim: Sim, token?: string): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromString(sim.kubeconfig(token));
  return kc;
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json<T = Record<string, unknown>>(): T;
}

/** One HTTPS request to the simulator, verifying its CA, for headers client-node does not expose. */
export function rawRequest(
  sim: Sim,
  path: string,
  options: { method?: string; token?: string; accept?: string; body?: string; contentType?: string } = {},
): Promise<RawResponse> {
  const url = new URL(path, sim.url);
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: options.method ?? 'GET',
        ca: sim.caPem,
        headers: {
          authorization: `Bearer ${options.token ?? sim.admin.token}`,
          ...(options.accept ? { accept: options.accept } : {}),
          ...(options.contentType ? { 'content-type': options.contentType } : {}),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json: () => JSON.parse(text) });
        });
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

export interface ExecResult {
  stdout: string;
  stderr: string;
  status: V1Status;
}

/** Runs a command in a pod's container through client-node's WebSocket exec and collects its output. */
export function execIn(
  sim: Sim,
  namespace: string,
  pod: string,
  container: string,
  command: string[],
  token?: string,
): Promise<ExecResult> {
  const exec = new Exec(kubeConfigFor(sim, token));
  let stdout = '';
  let stderr = '';
  const sink = (append: (text: string) => void) =>
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        append(chunk.toString('utf8'));
        done();
      },
    });
  return new Promise((resolve, reject) => {
    exec
      .exec(
        namespace,
        pod,
        container,
        command,
        sink((text) => {
          stdout += text;
        }),
        sink((text) => {
          stderr += text;
        }),
        null,
        false,
        (status) => resolve({ stdout, stderr, status }),
      )
      .then((ws) => ws.on('error', reject))
      .catch(reject);
  });
}
