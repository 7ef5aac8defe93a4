import { type AddressInfo, createServer, type Socket } from 'node:net';
import { KubeConfig } from '@kubernetes/client-node';
import { vi } from 'vitest';
import type { RequestKind } from '../../../sim/faults.ts';
import type { Sim } from '../../../sim/index.ts';
import { type ClusterAccessOptions, clusterAccess } from '../../../src/cluster/access.ts';
import { type ClusterAccess, KubeError } from '../../../src/cluster/types.ts';
import { kubeConfigFor } from '../../sim/harness.ts';

/** Both facades over the simulator, as the admin unless a kubeconfig token is given. */
export function accessTo(
  sim: Sim,
  options: Partial<ClusterAccessOptions> & { kubeconfigToken?: string } = {},
): ClusterAccess {
  const { kubeconfigToken, ...rest } = options;
  return clusterAccess(kubeConfigFor(sim, kubeconfigToken), { name: 'sim', ...rest });
}

/** The KubeError a call rejects with; anything else fails the test. */
export async function kubeErrorOf(call: Promise<unknown>): Promise<KubeError> {
  const outcome = await call.then(
    (value) => ({ resolved: value }),
    (error: unknown) => ({ error }),
  );
  if (!('error' in outcome)) throw new Error(`expected a KubeError, got ${JSON.stringify(outcome.resolved)}`);
  if (!(outcome.error instanceof KubeError)) throw outcome.error;
  return outcome.error;
}

/** Counts the API requests (exec upgrades included) the simulator authenticates from now on. */
export function countRequests(sim: Sim): () => number {
  const spy = vi.spyOn(sim.auth, 'authenticate');
  return () => spy.mock.calls.length;
}

/**
 * Fails requests of one kind by a fixed pattern instead of at random: `pattern[i]` says whether
 * the i-th such request fails (with the fault's error); requests past the pattern succeed.
 */
export function failByPattern(sim: Sim, kind: RequestKind, pattern: boolean[]): () => number {
  let seen = 0;
  vi.spyOn(sim.faults, 'shouldFail').mockImplementation(
    (asked) => asked === kind && (pattern[seen++] ?? false),
  );
  return () => seen;
}

/** A TCP server that accepts connections and never answers: no TLS handshake, no HTTP, no upgrade. */
export async function silentServer(): Promise<{ url: string; close(): Promise<void> }> {
  const sockets: Socket[] = [];
  const server = createServer((socket) => sockets.push(socket));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `https://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Both facades with the simulator's credentials, pointed at another server URL. */
export function accessAt(sim: Sim, url: string, options: Partial<ClusterAccessOptions> = {}): ClusterAccess {
  const kc = new KubeConfig();
  kc.loadFromString(sim.kubeconfig().replace(sim.url, url));
  return clusterAccess(kc, { name: 'elsewhere', ...options });
}
