import { X509Certificate } from 'node:crypto';
import { Agent, createServer, request, type Server } from 'node:https';
import {
  type AddressInfo,
  connect,
  createServer as createTcpServer,
  type Server as TcpServer,
} from 'node:net';
import type { TLSSocket } from 'node:tls';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createCertificates } from '../../../sim/tls.ts';
import { PreconnectAgent } from '../../../src/cluster/preconnect-agent.ts';

/** node's own way of resuming a session, untyped. */
type Resumable = TLSSocket & { setSession(session: Buffer): void };

let certs: Awaited<ReturnType<typeof createCertificates>>;
let server: Server;
let port: number;
/** Connections the server has accepted, and how many are still open. */
let accepted = 0;
let open = 0;

beforeAll(async () => {
  certs = await createCertificates({ hosts: ['127.0.0.1'] });
});

async function startServer(): Promise<void> {
  accepted = 0;
  open = 0;
  server = createServer({ cert: certs.certPem, key: certs.keyPem }, (_req, res) => res.end('ok'));
  server.on('secureConnection', (socket) => {
    accepted++;
    open++;
    socket.once('close', () => open--);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
}

afterEach(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/**
 * One GET; resolves with whether its connection was already up when the request got it, and
 * whether its TLS handshake had finished too.
 */
function get(agent: PreconnectAgent, to = port): Promise<{ alreadyConnected: boolean; handshaken: boolean }> {
  return new Promise((resolve, reject) => {
    let alreadyConnected = false;
    let handshaken = false;
    const req = request({ host: '127.0.0.1', port: to, path: '/', ca: certs.caPem, agent }, (res) => {
      res.resume();
      res.on('end', () => resolve({ alreadyConnected, handshaken }));
    });
    req.on('socket', (socket) => {
      alreadyConnected = !(socket as TLSSocket).connecting;
      handshaken = (socket as TLSSocket).getFinished() !== undefined;
    });
    req.on('error', reject);
    req.end();
  });
}

const waitFor = async (condition: () => boolean, ms = 3_000) => {
  const until = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
};

describe('PreconnectAgent', () => {
  // keepAlive off: every request needs a connection of its own, as every exec upgrade does.
  it('hands the later requests of a burst connections that opened before they were asked for', async () => {
    await startServer();
    const agent = new PreconnectAgent({ keepAlive: false, ca: certs.caPem });
    const results = [];
    for (let i = 0; i < 6; i++) results.push(await get(agent));
    expect(results.slice(0, 2).map((r) => r.alreadyConnected)).toEqual([false, false]);
    expect(results.slice(2).every((r) => r.alreadyConnected)).toBe(true);
    agent.destroy();
  });

  it('opens no spare for a lone request', async () => {
    await startServer();
    const agent = new PreconnectAgent({ keepAlive: false, ca: certs.caPem });
    await get(agent);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(accepted).toBe(1);
    agent.destroy();
  });

  it('closes the spares a burst leaves behind once they sit idle', async () => {
    await startServer();
    const agent = new PreconnectAgent({ keepAlive: false, ca: certs.caPem, spareIdleMs: 200 });
    for (let i = 0; i < 3; i++) await get(agent);
    await waitFor(() => accepted === 5);
    await waitFor(() => open === 0);
  });

  it('does not hand out a spare the server has closed', async () => {
    await startServer();
    const agent = new PreconnectAgent({ keepAlive: false, ca: certs.caPem });
    for (let i = 0; i < 3; i++) await get(agent);
    await waitFor(() => accepted === 5);
    server.closeAllConnections();
    await waitFor(() => open === 0);
    await new Promise((resolve) => setTimeout(resolve, 50));
    await expect(get(agent)).resolves.toMatchObject({ alreadyConnected: false });
    agent.destroy();
  });

  it("resumes every later connection from a session kept without the server's certificate", async () => {
    await startServer();
    const resumed: boolean[] = [];
    server.on('secureConnection', (socket: TLSSocket) => resumed.push(socket.isSessionReused()));
    // The sessions each connection the agent opens is given to resume.
    const sessions: Buffer[] = [];
    const original = Agent.prototype.createConnection;
    Agent.prototype.createConnection = function (this: Agent, ...args: Parameters<typeof original>) {
      const socket = original.apply(this, args) as Resumable;
      const setSession = socket.setSession.bind(socket);
      socket.setSession = (session) => {
        sessions.push(session);
        setSession(session);
      };
      return socket;
    };
    const agent = new PreconnectAgent({ keepAlive: false, ca: certs.caPem });
    try {
      for (let i = 0; i < 4; i++) await get(agent);
      await waitFor(() => resumed.length === 6);
    } finally {
      Agent.prototype.createConnection = original;
      agent.destroy();
    }
    const certificate = new X509Certificate(certs.certPem).raw;
    expect(sessions.length).toBeGreaterThanOrEqual(4);
    expect(sessions.some((session) => session.includes(certificate))).toBe(false);
    expect(resumed.filter(Boolean).length).toBe(sessions.length);
  });

  it('keeps more spares opening while the ones it hands out are still shaking hands', async () => {
    await startServer();
    // Every answer from the server arrives 15 ms late: 2 spares cannot finish their handshakes
    // between 8 requests at a time.
    const slow = await delayingProxy(port, 15);
    const agent = new PreconnectAgent({ keepAlive: false, ca: certs.caPem });
    const results: { handshaken: boolean }[] = [];
    const worker = async () => {
      for (let i = 0; i < 12; i++) results.push(await get(agent, slow.port));
    };
    await Promise.all(Array.from({ length: 8 }, worker));
    const late = results.slice(-24);
    expect(late.filter((r) => r.handshaken).length).toBeGreaterThanOrEqual(20);
    agent.destroy();
    await slow.close();
  });
});

/** A TCP proxy to `target` that passes the server's bytes on `delayMs` after they arrive. */
async function delayingProxy(
  target: number,
  delayMs: number,
): Promise<{ port: number; close(): Promise<void> }> {
  const proxy: TcpServer = createTcpServer((client) => {
    const upstream = connect(target, '127.0.0.1');
    client.pipe(upstream);
    upstream.on('data', (chunk) => setTimeout(() => client.write(chunk), delayMs));
    upstream.on('close', () => setTimeout(() => client.destroy(), delayMs));
    client.on('close', () => upstream.destroy());
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  return {
    port: (proxy.address() as AddressInfo).port,
    close: () => new Promise((resolve) => proxy.close(() => resolve())),
  };
}
