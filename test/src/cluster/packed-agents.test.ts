import { describe, expect, it } from 'vitest';
import { PackedAgents } from '../../../src/cluster/packed-agents.ts';
import type { AgentPod } from '../../../src/cluster/types.ts';

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
});
