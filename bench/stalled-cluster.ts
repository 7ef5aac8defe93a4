import type { AddressInfo } from 'node:net';
import { createServer, type Socket } from 'node:net';

/**
 * A cluster endpoint that accepts TCP connections and never answers (not even the TLS handshake):
 * what a client sees of an API server behind a black-holed route or a hung load balancer.
 */
export async function startStalledEndpoint(): Promise<{ url: string; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://127.0.0.1:${port}`,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
