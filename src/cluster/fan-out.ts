import pLimit from 'p-limit';
import type { AgentPod, AgentResult, FanOutOptions } from './types.ts';

const DEFAULT_CONCURRENCY = 16;

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

/**
 * Runs `work` on every agent, at most `concurrency` at once. Each agent gets its own result, so
 * one failure does not stop the rest; once `signal` aborts, agents not yet started fail with
 * its reason and those running finish.
 */
export async function fanOut<T>(
  agents: readonly AgentPod[],
  work: (agent: AgentPod) => Promise<T>,
  options: FanOutOptions = {},
): Promise<AgentResult<T>[]> {
  const limit = pLimit(options.concurrency ?? DEFAULT_CONCURRENCY);
  let done = 0;
  let failed = 0;
  const runOne = async (agent: AgentPod): Promise<AgentResult<T>> => {
    let result: AgentResult<T>;
    try {
      options.signal?.throwIfAborted();
      result = { agent, ok: true, value: await work(agent) };
    } catch (error) {
      result = { agent, ok: false, error: asError(error) };
      failed += 1;
    }
    options.onProgress?.(++done, agents.length, failed);
    return result;
  };
  return Promise.all(agents.map((agent) => limit(runOne, agent)));
}
