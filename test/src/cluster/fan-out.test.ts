import { describe, expect, it } from 'vitest';
import { fanOut } from '../../../src/cluster/fan-out.ts';
import type { AgentPod } from '../../../src/cluster/types.ts';

const agents: AgentPod[] = Array.from({ length: 9 }, (_, i) => ({
  name: `cilium-${i}`,
  namespace: 'kube-system',
  uid: `u-${i}`,
  node: `node-${i}`,
  ready: true,
}));

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('fanOut', () => {
  it("starts the agents in their order, hands each its place, and answers in the agents' order", async () => {
    const started: number[] = [];
    // Later agents finish first: the answer is still in the agents' order.
    const results = await fanOut(
      agents,
      async (agent, index) => {
        started.push(index);
        await pause((agents.length - index) * 3);
        return `${index}:${agent.node}`;
      },
      { concurrency: 3 },
    );
    expect(started).toEqual(agents.map((_, i) => i));
    expect(results.map((r) => (r.ok ? r.value : r.error))).toEqual(agents.map((a, i) => `${i}:${a.node}`));
    expect(results.map((r) => r.agent)).toEqual(agents);
  });

  it('starts an agent only when one of the `concurrency` running ends', async () => {
    let running = 0;
    let mostAtOnce = 0;
    const startedWhileRunning: number[] = [];
    await fanOut(
      agents,
      async () => {
        startedWhileRunning.push(running);
        mostAtOnce = Math.max(mostAtOnce, ++running);
        await pause(5);
        running--;
      },
      { concurrency: 4 },
    );
    expect(mostAtOnce).toBe(4);
    expect(startedWhileRunning.every((count) => count < 4)).toBe(true);
  });

  it('answers an empty list with no results', async () => {
    expect(await fanOut([], async () => 'never')).toEqual([]);
  });
});
