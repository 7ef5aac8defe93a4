import { Agent, type IncomingHttpHeaders, request } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LocalServer, startLocalServer } from '../../cli/serve/local-server.ts';
import { MAX_BODY_BYTES } from '../../functions/http-app.ts';
import { consoleSink } from '../../src/chat/console.ts';
import { parseConfig } from '../../src/config/load.ts';
import { collector } from '../functions/harness.ts';

const TOKEN = 'keep-alive-webhook-token';
const LIMIT = MAX_BODY_BYTES; // the server's default body limit

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  /** The client's end of the connection it came on. */
  port: number | undefined;
  /** Resolves when the client's socket has closed. */
  closed: Promise<void>;
}

/**
 * One request through a keep-alive agent. A `slow` body is sent as a sender on a slow link does:
 * 64 KiB, then the answer arrives, then the rest 700 ms later (past @hono/node-server's 500 ms drain).
 */
function send(
  url: string,
  agent: Agent,
  options: { method?: string; path: string; headers?: Record<string, string>; body?: Buffer; slow?: boolean },
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const body = options.body;
    const req = request(new URL(options.path, url), {
      agent,
      method: options.method ?? 'GET',
      headers: { ...options.headers, ...(body ? { 'content-length': String(body.length) } : {}) },
    });
    let closed: Promise<void> | undefined;
    req.on('socket', (socket) => {
      closed = new Promise((done) => socket.once('close', () => done()));
    });
    // The request is done once all of it went out, or the connection closed (or failed) first.
    const sent = new Promise<void>((done) => {
      for (const event of ['finish', 'close', 'error']) req.once(event, () => done());
    });
    req.once('error', (error) => (closed ? undefined : reject(error)));
    req.on('response', (response) => {
      const port = req.socket?.localPort;
      response.resume();
      const ended = new Promise<void>((done) => response.on('end', () => done()));
      void Promise.all([ended, sent]).then(() =>
        resolve({
          status: response.statusCode ?? 0,
          headers: response.headers,
          port,
          closed: closed as Promise<void>,
        }),
      );
    });
    if (!body) return void req.end();
    if (!options.slow) return void req.end(body);
    req.write(body.subarray(0, 64 * 1024));
    req.once('response', () => void sleep(700).then(() => req.end(body.subarray(64 * 1024))));
  });
}

const within = (promise: Promise<void>, ms: number) =>
  Promise.race([promise.then(() => true), sleep(ms).then(() => false)]);

describe('responder serve keeps its word on keep-alive', () => {
  let server: LocalServer;
  let agent: Agent;
  beforeAll(async () => {
    server = await startLocalServer({
      config: parseConfig('clusters:\n  - name: prod-eu\n    sim: { scenarios: [healthy] }\n'),
      chat: consoleSink(collector().stream),
      secrets: { alertmanagerToken: TOKEN },
    });
  });
  afterAll(async () => {
    agent?.destroy();
    await server.close();
  });

  const webhook = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };

  /**
   * An answer given before the whole request arrived either says `Connection: close` and closes,
   * or keeps its word: the next request goes on the same socket. Either way the client goes on.
   */
  async function keepsItsWord(refused: Answer) {
    const kept = refused.headers.connection !== 'close';
    if (!kept) expect(await within(refused.closed, 5_000)).toBe(true);
    const next = await send(server.url, agent, { path: '/healthz' });
    expect(next.status).toBe(200);
    if (kept) expect(next.port).toBe(refused.port);
  }

  it('after a 413 answered while the body still arrives, the connection is closed or still usable', async () => {
    agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const refused = await send(server.url, agent, {
      method: 'POST',
      path: '/alerts/alertmanager',
      headers: webhook,
      body: Buffer.alloc(4 * LIMIT, 'x'),
      slow: true,
    });
    expect(refused.status).toBe(413);
    await keepsItsWord(refused);
  });

  it('so after a 401 sent before the body was read', async () => {
    agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const refused = await send(server.url, agent, {
      method: 'POST',
      path: '/alerts/alertmanager',
      headers: { ...webhook, authorization: 'Bearer wrong' },
      body: Buffer.alloc(LIMIT - 1, 'x'),
      slow: true,
    });
    expect(refused.status).toBe(401);
    await keepsItsWord(refused);
  });

  it('keeps the connection of answers given after the whole request arrived', async () => {
    agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const first = await send(server.url, agent, { path: '/healthz' });
    const bad = await send(server.url, agent, {
      method: 'POST',
      path: '/alerts/alertmanager',
      headers: webhook,
      body: Buffer.from('{"version":'),
    });
    expect(bad.status).toBe(400);
    const last = await send(server.url, agent, { path: '/healthz' });
    expect([first.headers.connection, bad.headers.connection, last.headers.connection]).toEqual([
      'keep-alive',
      'keep-alive',
      'keep-alive',
    ]);
    expect(new Set([first.port, bad.port, last.port]).size).toBe(1);
  });
});
