import { describe, expect, it } from 'vitest';
import { PackedAgents } from '../../../src/cluster/packed-agents.ts';
import type { AgentPod } from '../../../src/cluster/types.ts';
import { exposeGc } from '../../helpers/gc.ts';

const agents: AgentPod[] = [
  {
    name: 'cilium-a1',
    namespace: 'kube-system',
    uid: '0b6f3c1e-1111-4c4c-9d9d-000000000001',
    node: 'ip-10-0-0-1.eu-west-1.compute.internal',
    ready: true,
    containerId: `containerd://${'a'.repeat(64)}`,
  },
  // Not ready, no container yet, and a node name beyond ASCII.
  { name: 'cilium-b2', namespace: 'kube-system', uid: 'u-2', node: 'nœud-2', ready: false },
  { name: 'cilium-c3', namespace: 'cilium', uid: 'u-3', node: 'node-3', ready: true },
];

describe('PackedAgents', () => {
  it('gives back every agent as it was packed, in order', () => {
    const packed = PackedAgents.of(agents);
    expect(packed.length).toBe(3);
    expect(packed.all()).toEqual(agents);
    expect(packed.at(1)).toEqual(agents[1]);
    expect(packed.at(1)).not.toHaveProperty('containerId');
    expect(packed.at(-1)).toEqual(agents[2]);
    expect(packed.at(3)).toBeUndefined();
    expect(PackedAgents.of([]).all()).toEqual([]);
  });

  it('holds no agent object: each is made anew, so a caller changing one changes no other', () => {
    const packed = PackedAgents.of(agents);
    const first = packed.at(0) as AgentPod;
    expect(packed.at(0)).not.toBe(first);
    first.node = 'changed';
    expect(packed.at(0)?.node).toBe(agents[0]?.node);
    // The namespace's name is one string, shared by its agents.
    expect(packed.at(0)?.namespace).toBe(packed.at(1)?.namespace);
  });

  it("keeps nothing of an agent but the field a caller keeps (a run keeps every node's name)", async () => {
    const gc = exposeGc();
    const collected = async () => {
      for (let round = 0; round < 3; round++) {
        gc();
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      return process.memoryUsage().heapUsed;
    };
    const count = 50_000;
    const packed = PackedAgents.of(
      Array.from({ length: count }, (_, i) => ({
        name: `cilium-${i}`,
        namespace: 'kube-system',
        uid: `0b6f3c1e-1111-4c4c-9d9d-${String(i).padStart(12, '0')}`,
        node: `ip-10-0-${i >> 8}-${i & 255}.eu-west-1.compute.internal`,
        ready: true,
        containerId: `containerd://${String(i).repeat(64).slice(0, 64)}`,
      })),
    );
    const nodes: string[] = [];
    const before = await collected();
    for (let i = 0; i < count; i++) nodes.push((packed.at(i) as AgentPod).node);
    const perNode = ((await collected()) - before) / count;
    expect(new Set(nodes).size).toBe(count);
    // A 40-character name and its slot are about 70 bytes on the heap; cut from the agent's whole
    // text it held that text too (about 240 bytes).
    expect(perNode).toBeLessThan(140);
  });
});
