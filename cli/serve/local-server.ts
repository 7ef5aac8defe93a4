import type { AddressInfo } from 'node:net';
import { type Http2Bindings, type HttpBindings, serve } from '@hono/node-server';
import type { ConsoleOptions } from '../../functions/console/console-app.ts';
import { createHttpApp, type HttpSecrets } from '../../functions/http-app.ts';
import { BUILT_IN_RUNBOOKS, type RunbookSet } from '../../runbooks/team.ts';
import { type App, createApp } from '../../src/app/app.ts';
import type { ClusterPorts } from '../../src/app/ports.ts';
import { createWorker } from '../../src/app/worker.ts';
import type { ApproverDirectory, ChatSink } from '../../src/chat/types.ts';
import type { ResponderConfig } from '../../src/config/schema.ts';
import { type MemoryQueue, memoryQueue } from '../../src/queue/memory.ts';
import { memoryStore } from '../../src/store/index.ts';
import type { StateStore } from '../../src/store/types.ts';
import { clusterConnector } from '../cluster-connector.ts';
import { localPorts } from '../local-app.ts';
import { listenError } from '../port-in-use.ts';
import { LOCAL_WORKER } from '../state-lock.ts';

export interface LocalServerOptions {
  config: ResponderConfig;
  /** The runbooks the config can run (default: the built-in ones). */
  runbooks?: RunbookSet;
  chat: ChatSink;
  secrets: HttpSecrets;
  /** Where runs, dedupe, leases and the brake live; in memory unless given. */
  store?: StateStore;
  /** Resolves approvers configured as Slack user groups. */
  directory?: ApproverDirectory;
  /** How the worker reaches clusters; by default the config's clusters (a `sim` one starts in-process). */
  connect?: ClusterPorts['connect'];
  /** Progress of the worker's runs (fan-outs and waits), for a person watching. */
  onProgress?: ClusterPorts['onProgress'];
  /** The web console under /ui, and how to sign in to it. */
  console?: ConsoleOptions;
  port?: number;
  host?: string;
}

export interface LocalServer {
  url: string;
  app: App;
  queue: MemoryQueue;
  close(): Promise<void>;
}

/**
 * An answer given before the whole request arrived (a 413, a 401 to a large post) says
 * `Connection: close`, and Node then closes the connection after it. Said keep-alive instead,
 * @hono/node-server would read on at most 64 MiB or 500 ms, then drop the socket the client was
 * told it could use again.
 */
type Bindings = HttpBindings | Http2Bindings;

function closingEarlyAnswers(fetch: (request: Request, env: Bindings) => Response | Promise<Response>) {
  return async (request: Request, env: Bindings): Promise<Response> => {
    const response = await fetch(request, env);
    if (env.incoming.complete) return response;
    const headers = new Headers(response.headers);
    headers.set('connection', 'close');
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
  };
}

/**
 * The same HTTP app as the Lambda, on a local port: the composition root with an in-process queue
 * and its worker, the state store and chat sink of the caller's choice.
 */
export async function startLocalServer(options: LocalServerOptions): Promise<LocalServer> {
  const clusters = clusterConnector();
  const base = {
    ...localPorts(options.config, options.store ?? memoryStore(), options.chat, options.runbooks),
    ...(options.directory ? { directory: options.directory } : {}),
  };
  // The worker queues follow-ups on the queue that runs it.
  const worker = createWorker(
    { ...base, queue: { send: (job) => queue.send(job) } },
    {
      runbooks: (options.runbooks ?? BUILT_IN_RUNBOOKS).runbooks,
      connect: options.connect ?? ((cluster) => clusters.connect(cluster)),
      workerName: LOCAL_WORKER,
      ...(options.onProgress ? { onProgress: options.onProgress } : {}),
    },
  );
  const queue = memoryQueue({
    handle: (job) => worker.run(job),
    onDead: (letter) => worker.deadLettered(letter),
  });
  const app = createApp({ ...base, queue });
  const http = createHttpApp({
    app,
    secrets: options.secrets,
    ...(options.console ? { console: options.console } : {}),
  });
  const host = options.host ?? '127.0.0.1';
  const server = serve({ fetch: closingEarlyAnswers(http.fetch), port: options.port ?? 0, hostname: host });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error) => reject(listenError(error, host, options.port)));
    server.once('listening', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host}:${port}`,
    app,
    queue,
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await queue.idle();
      await clusters.close();
    },
  };
}
