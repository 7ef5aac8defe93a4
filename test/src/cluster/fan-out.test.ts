import { describe, expect, it } from 'vitest';
import { fanOut } from '../../../src/cluster/fan-out.ts';
import { PackedAgents } from '../../../src/cluster/packed-agents.ts';
import { type AgentPod, KubeError } from '../../../src/cluster/types.ts';

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

  it("keeps a failure's words, not the socket and buffers its error points to", async () => {
    const thrown: Error[] = [];
    const results = await fanOut(agents.slice(0, 2), async (agent, index) => {
      const error =
        index === 0
          ? Object.assign(new Error(`${agent.node}: connection reset`), { socket: Buffer.alloc(1024) })
          : new KubeError('forbidden', 'create', 'pods/exec', 'no exec for you', 403);
      thrown.push(error);
      throw error;
    });
    const [plain, kube] = results.map((r) => (r.ok ? undefined : r.error));
    expect(plain).not.toBe(thrown[0]);
    expect(plain).toBeInstanceOf(Error);
    expect(plain?.message).toBe('node-0: connection reset');
    expect(plain?.stack).toBe(thrown[0]?.stack);
    expect(plain).not.toHaveProperty('socket');
    expect(kube).not.toBe(thrown[1]);
    expect(kube).toBeInstanceOf(KubeError);
    expect(kube).toMatchObject({ kind: 'forbidden', verb: 'create', resource: 'pods/exec', status: 403 });
    expect(kube?.message).toBe(thrown[1]?.message);
  });

  it("with keep 'failed' holds nothing of an agent that succeeds", async () => {
    const results = await fanOut(
      agents,
      async (agent, index) => {
        if (index === 4) throw new Error(`${agent.node} unreachable`);
        return agent.node;
      },
      { keep: 'failed' },
    );
    expect(results).toEqual([{ agent: agents[4], ok: false, error: new Error('node-4 unreachable') }]);
  });

  it('walks a packed list, skipping the agents an earlier invocation did', async () => {
    const packed = PackedAgents.of(agents);
    const seen: string[] = [];
    const results = await fanOut(
      packed,
      async (agent, index) => {
        seen.push(`${index}:${agent.node}`);
        return agent.uid;
      },
      { skip: (agent) => agent.node < 'node-6' },
    );
    expect(seen).toEqual(['0:node-6', '1:node-7', '2:node-8']);
    expect(results).toEqual(agents.slice(6).map((agent) => ({ agent, ok: true, value: agent.uid })));
  });
});
