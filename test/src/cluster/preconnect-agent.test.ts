import { createServer, request, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createCertificates } from '../../../sim/tls.ts';
import { PreconnectAgent } from '../../../src/cluster/preconnect-agent.ts';

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

/** One GET; resolves with whether its connection was already up when the request got it. */
function get(agent: PreconnectAgent): Promise<{ alreadyConnected: boolean }> {
  return new Promise((resolve, reject) => {
    let alreadyConnected = false;
    const req = request({ host: '127.0.0.1', port, path: '/', ca: certs.caPem, agent }, (res) => {
      res.resume();
      res.on('end', () => resolve({ alreadyConnected }));
    });
    req.on('socket', (socket) => {
      alreadyConnected = !(socket as TLSSocket).connecting;
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
    await expect(get(agent)).resolves.toEqual({ alreadyConnected: false });
    agent.destroy();
  });
});
