import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { localTables } from '../test/src/store/local-dynamodb.ts';

/** A free loopback port (dynalite's command line takes 0 as its default, 4567). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * dynalite, the DynamoDB-compatible server, in a process of its own as DynamoDB is a service of its
 * own: the store's requests cross a socket and its CPU is not the caller's event loop.
 */
export async function startDynaliteProcess() {
  const port = await freePort();
  const cli = join(dirname(createRequire(import.meta.url).resolve('dynalite')), 'cli.js');
  const child = spawn(
    process.execPath,
    [cli, '--port', String(port), '--host', '127.0.0.1', '--createTableMs', '0'],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  await new Promise<void>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`dynalite exited ${code} before listening`)));
    child.stdout.once('data', () => resolve());
  });
  const tables = localTables(`http://127.0.0.1:${port}`);
  return {
    ...tables,
    stop() {
      tables.client.destroy();
      child.kill();
    },
  };
}
