import type { AgentPod, AgentResult, FanOutOptions } from './types.ts';

const DEFAULT_CONCURRENCY = 16;

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

/**
 * Runs `work` on every agent not skipped, at most `concurrency` at once. Each agent gets its own
 * result, so one failure does not stop the rest; once `signal` aborts, agents not yet started
 * fail with its reason and those running finish; once `pause` says so, agents not yet started
 * are left out of the results (the run's next invocation does them) and those running finish.
 * `concurrency` runners take the agents in order, so what waits costs nothing per agent (a queued
 * task per agent would hold 100,000 closures and promises at a 100,000-node cluster); results
 * come back in the agents' order.
 */
export async function fanOut<T>(
  all: readonly AgentPod[],
  work: (agent: AgentPod, index: number) => Promise<T>,
  options: FanOutOptions = {},
): Promise<AgentResult<T>[]> {
  const agents = options.skip ? all.filter((agent) => !options.skip?.(agent)) : all;
  const results = new Array<AgentResult<T> | undefined>(agents.length);
  let next = 0;
  let done = 0;
  let failed = 0;
  const runner = async () => {
    for (let index = next++; index < agents.length; index = next++) {
      if (options.pause?.()) return;
      const agent = agents[index] as AgentPod;
      try {
        options.signal?.throwIfAborted();
        results[index] = { agent, ok: true, value: await work(agent, index) };
      } catch (error) {
        results[index] = { agent, ok: false, error: asError(error) };
        failed += 1;
      }
      options.onProgress?.(++done, agents.length, failed);
    }
  };
  const runners = Math.max(1, Math.min(options.concurrency ?? DEFAULT_CONCURRENCY, agents.length));
  await Promise.all(Array.from({ length: runners }, runner));
  return results.filter((result) => result !== undefined);
}
