import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { createHttpApp } from '../../functions/http-app.ts';
import { RUNBOOKS } from '../../runbooks/index.ts';
import type { ApproverDirectory, ChatSink } from '../../src/chat/types.ts';
import type { ResponderConfig } from '../../src/config/schema.ts';
import { SILENT } from '../../src/engine/run.ts';
import { type MemoryQueue, memoryQueue } from '../../src/queue/memory.ts';
import { memoryStore } from '../../src/store/index.ts';
import type { StateStore } from '../../src/store/types.ts';
import { runJob } from '../../src/worker/run-job.ts';
import { clusterConnector } from '../cluster-connector.ts';

export interface LocalServerOptions {
  config: ResponderConfig;
  chat: ChatSink;
  secrets: { slackSigningSecret?: string; alertmanagerToken?: string };
  /** Resolves approvers configured as Slack user groups. */
  directory?: ApproverDirectory;
  port?: number;
  host?: string;
}

export interface LocalServer {
  url: string;
  store: StateStore;
  queue: MemoryQueue;
  close(): Promise<void>;
}

/**
 * The same HTTP app as the Lambda, on a local port, with the in-memory store, an in-process queue
 * and its worker, and a chat sink of the caller's choice (the console, locally).
 */
export async function startLocalServer(options: LocalServerOptions): Promise<LocalServer> {
  const { config } = options;
  const store = memoryStore();
  const clusters = clusterConnector();
  const now = () => new Date();
  const queue = memoryQueue({
    handle: (job) =>
      runJob(job, {
        config,
        store,
        runbooks: RUNBOOKS,
        connect: (cluster) => clusters.connect(cluster),
        chat: options.chat,
        defaultChannel: '#cilium-responder',
        now,
        log: SILENT,
        owner: `local-${process.pid}`,
      }),
  });
  const app = createHttpApp({
    dispatch: {
      config,
      chat: options.chat,
      store,
      queue,
      runbooks: RUNBOOKS.map((r) => r.id),
      now,
      newId: randomUUID,
      ...(options.directory ? { directory: options.directory } : {}),
    },
    secrets: options.secrets,
  });
  const server = serve({ fetch: app.fetch, port: options.port ?? 0, hostname: options.host ?? '127.0.0.1' });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${options.host ?? '127.0.0.1'}:${port}`,
    store,
    queue,
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await queue.idle();
      await clusters.close();
    },
  };
}
