import { anySignal } from './any-signal.ts';
import type { CiliumFacade, ExecOptions, FanOutOptions, KubeReader } from './types.ts';

/** `work`, or the signal's reason as soon as it aborts, even if `work` does not listen. */
export function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** Each page as `pages` gives it, or the signal's reason as soon as it aborts, the request in flight left behind. */
async function* pagesUntilAborted<T>(pages: AsyncIterable<T>, signal: AbortSignal): AsyncGenerator<T> {
  const iterator = pages[Symbol.asyncIterator]();
  try {
    for (;;) {
      const next = await untilAborted(iterator.next(), signal);
      if (next.done) return;
      yield next.value;
    }
  } finally {
    // Aborted, the list is mid-request: its generator closes once that request settles.
    const closing = iterator.return?.();
    if (!signal.aborted) await closing;
    else closing?.catch(() => undefined);
  }
}

const withSignal = <O extends ExecOptions | FanOutOptions>(options: O | undefined, signal: AbortSignal): O =>
  ({ ...options, signal: options?.signal ? anySignal([options.signal, signal]) : signal }) as O;

/**
 * One run's reads and commands, stopped with the run: every exec (and so every monitor) closes its
 * connection, every fan-out starts no more agents, and every read answers the signal's reason at
 * once, so a stopped step leaves nothing running in the cluster or in this process.
 */
export function readerUntilAborted(kube: KubeReader, signal: AbortSignal): KubeReader {
  return {
    get clusterName() {
      return kube.clusterName;
    },
    get: (resource, namespace, name) => untilAborted(kube.get(resource, namespace, name), signal),
    list: (resource, options) => untilAborted(kube.list(resource, options), signal),
    pages: (resource, options) => pagesUntilAborted(kube.pages(resource, options), signal),
    exec: (namespace, pod, container, command, options) =>
      kube.exec(namespace, pod, container, command, withSignal(options, signal)),
  };
}

/** The Cilium facade of one run, stopped with it (see readerUntilAborted). */
export function ciliumUntilAborted(cilium: CiliumFacade, signal: AbortSignal): CiliumFacade {
  return {
    get namespace() {
      return cilium.namespace;
    },
    agents: () => untilAborted(cilium.agents(), signal),
    findAgent: (test) => untilAborted(cilium.findAgent(test), signal),
    config: () => untilAborted(cilium.config(), signal),
    exec: (agent, command, options) => cilium.exec(agent, command, withSignal(options, signal)),
    execFirst: (agent, alternatives, options) =>
      cilium.execFirst(agent, alternatives, withSignal(options, signal)),
    dbg: (agent, args, options) => cilium.dbg(agent, args, withSignal(options, signal)),
    iptablesSave: (agent, table, options) => cilium.iptablesSave(agent, table, withSignal(options, signal)),
    forEachAgent: (work, options) => cilium.forEachAgent(work, withSignal(options, signal)),
  };
}
