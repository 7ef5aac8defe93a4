import type { JobQueue } from '../src/queue/types.ts';
import type { StateStore } from '../src/store/types.ts';
import type { AwsClients } from './aws-clients.ts';
import { onFirstCall } from './on-first-call.ts';

/**
 * The SDK's DynamoDB and SQS clients, built on the first call that needs them: a request that
 * touches neither (a health check, a refused signature, Slack's help) never loads the SDK, and
 * the cold start does not pay for it. Built once per container, as before.
 */
export function lazyAwsClients(env: { table: string; queueUrl: string }): () => Promise<AwsClients> {
  return onFirstCall(async () => (await import('./aws-clients.ts')).awsClients(env));
}

/** Every part of the store: a part the type gains and this misses fails to compile. */
const PARTS: { [K in keyof StateStore]: true } = {
  dedupe: true,
  pairs: true,
  leases: true,
  brake: true,
  runs: true,
  checkpoints: true,
  threads: true,
};

/** Every method of every part of the store (all of them async) calls the real one once it is loaded. */
export function lazyStore(clients: () => Promise<AwsClients>): StateStore {
  const part = <K extends keyof StateStore>(name: K): StateStore[K] =>
    new Proxy({} as StateStore[K], {
      get: (_target, method) =>
        typeof method !== 'string' || method === 'then'
          ? undefined
          : async (...args: unknown[]) => {
              const real = (await clients()).store[name] as unknown as Record<
                string,
                (...a: unknown[]) => Promise<unknown>
              >;
              const call = real[method];
              if (typeof call !== 'function') throw new TypeError(`the store's ${name} has no ${method}`);
              return call.apply(real, args);
            },
    });
  return Object.fromEntries(
    (Object.keys(PARTS) as (keyof StateStore)[]).map((name) => [name, part(name)]),
  ) as unknown as StateStore;
}

export function lazyQueue(clients: () => Promise<AwsClients>): JobQueue {
  return { send: async (job) => (await clients()).queue.send(job) };
}
