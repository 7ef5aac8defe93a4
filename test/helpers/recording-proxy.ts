import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A loopback proxy in front of a local DynamoDB that notes which operations each caller performs:
 * point a caller at `${url}/<caller>` (the SDK posts to its endpoint's path) and read `performed`.
 */
export async function startRecordingProxy(target: string) {
  const performed = new Map<string, Set<string>>();
  const upstream = new URL(target);
  const server = createServer((incoming, outgoing) => {
    const caller = decodeURIComponent((incoming.url ?? '/').split('/')[1] ?? '');
    const operation =
      String(incoming.headers['x-amz-target'] ?? '')
        .split('.')
        .pop() ?? '';
    performed.set(caller, (performed.get(caller) ?? new Set()).add(operation));
    const forwarded = request(
      {
        hostname: upstream.hostname,
        port: upstream.port,
        method: incoming.method,
        path: '/',
        headers: { ...incoming.headers, host: upstream.host },
      },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    incoming.pipe(forwarded);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    performed,
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}
