import type { AgentSource } from './packed-agents.ts';
import { type AgentPod, type AgentResult, type FanOutOptions, KubeError } from './types.ts';

const DEFAULT_CONCURRENCY = 16;

/**
 * A failure's words without what it points to: an exec's error holds, through its stack's frames
 * and its own fields, the failed request, TLS socket, WebSocket and response (about 22 KB an
 * agent). Its message, kind and stack text stay: what a person reads of it.
 */
function detached(error: unknown): Error {
  if (!(error instanceof Error)) return new Error(String(error));
  const copy =
    error instanceof KubeError
      ? new KubeError(
          error.kind,
          error.verb,
          error.resource,
          error.detail,
          error.status,
          error.retryAfterSeconds,
          error.unsent,
        )
      : new Error(error.message);
  if (copy.name !== error.name) copy.name = error.name;
  copy.stack = String(error.stack);
  return copy;
}

/** The places of the agents not skipped, 4 bytes each where a filtered copy would hold every agent. */
function pending(all: AgentSource, skip: FanOutOptions['skip']): Uint32Array {
  const places = new Uint32Array(all.length);
  let count = 0;
  for (let index = 0; index < all.length; index++) {
    const agent = all.at(index) as AgentPod;
    if (!skip?.(agent)) places[count++] = index;
  }
  return places.subarray(0, count);
}

/**
 * Runs `work` on every agent not skipped, at most `concurrency` at once. Each agent gets its own
 * result, so one failure does not stop the rest; once `signal` aborts, agents not yet started
 * fail with its reason and those running finish; once `pause` says so, agents not yet started
 * are left out of the results (the run's next invocation does them) and those running finish.
 * `concurrency` runners take the agents in order, so what waits costs nothing per agent (a queued
 * task per agent would hold 100,000 closures and promises at a 100,000-node cluster); results
 * come back in the agents' order. A failure keeps its error detached (its words, not its stack's
 * frames, sockets and buffers), and with `keep: 'failed'` a success keeps nothing at all.
 */
export async function fanOut<T>(
  all: AgentSource,
  work: (agent: AgentPod, index: number) => Promise<T>,
  options: FanOutOptions = {},
): Promise<AgentResult<T>[]> {
  const places = pending(all, options.skip);
  const results: (AgentResult<T> | undefined)[] = [];
  const keepAll = options.keep !== 'failed';
  let next = 0;
  let done = 0;
  let failed = 0;
  const runner = async () => {
    for (let index = next++; index < places.length; index = next++) {
      if (options.pause?.()) return;
      const agent = all.at(places[index] as number) as AgentPod;
      try {
        options.signal?.throwIfAborted();
        const value = await work(agent, index);
        if (keepAll) results[index] = { agent, ok: true, value };
      } catch (error) {
        results[index] = { agent, ok: false, error: detached(error) };
        failed += 1;
      }
      options.onProgress?.(++done, places.length, failed);
    }
  };
  const runners = Math.max(1, Math.min(options.concurrency ?? DEFAULT_CONCURRENCY, places.length));
  await Promise.all(Array.from({ length: runners }, runner));
  return results.filter((result) => result !== undefined);
}
