import { describe, expect, it } from 'vitest';
import { type AgentCandidate, agentCandidate, agentsPerNode } from '../../../src/cluster/agent-pods.ts';
import type { KubeObject } from '../../../src/cluster/types.ts';

function candidate(name: string, node: string, extra: Partial<AgentCandidate> = {}): AgentCandidate {
  return {
    name,
    namespace: 'kube-system',
    uid: `uid-${name}`,
    node,
    ready: true,
    deleting: false,
    createdAt: '2025-01-01T00:00:00Z',
    ...extra,
  };
}

describe('agentCandidate', () => {
  const pod = (extra: Record<string, unknown>): KubeObject => ({
    metadata: {
      name: 'cilium-abc',
      namespace: 'kube-system',
      uid: 'u1',
      creationTimestamp: '2025-01-01T00:00:00Z',
    },
    spec: { nodeName: 'node-a' },
    ...extra,
  });

  it('reads readiness and the cilium-agent container id', () => {
    const agent = agentCandidate(
      pod({
        status: {
          conditions: [{ type: 'Ready', status: 'True' }],
          containerStatuses: [
            { name: 'sidecar', containerID: 'containerd://other' },
            { name: 'cilium-agent', containerID: 'containerd://abc' },
          ],
        },
      }),
    );
    expect(agent).toMatchObject({
      name: 'cilium-abc',
      node: 'node-a',
      ready: true,
      containerId: 'containerd://abc',
    });
  });

  it('treats a pod without a Ready=True condition as not ready', () => {
    const agent = agentCandidate(pod({ status: { conditions: [{ type: 'Ready', status: 'False' }] } }));
    expect(agent?.ready).toBe(false);
    expect(agent).not.toHaveProperty('containerId');
  });

  it('skips a pod not yet scheduled', () => {
    expect(agentCandidate(pod({ spec: {} }))).toBeUndefined();
  });
});

describe('agentsPerNode', () => {
  it('keeps one agent per node, sorted by node, without the selection fields', () => {
    const agents = agentsPerNode([candidate('c2', 'node-b'), undefined, candidate('c1', 'node-a')]).all();
    expect(agents.map((a) => a.name)).toEqual(['c1', 'c2']);
    expect(agents[0]).not.toHaveProperty('deleting');
    expect(agents[0]).not.toHaveProperty('createdAt');
  });

  it('prefers the pod not being deleted, then the ready one, then the newer', () => {
    const old = candidate('old', 'n', { deleting: true, createdAt: '2025-01-02T00:00:00Z' });
    const fresh = candidate('fresh', 'n', { ready: false });
    const names = (...candidates: AgentCandidate[]) =>
      agentsPerNode(candidates)
        .all()
        .map((a) => a.name);
    expect(names(old, fresh)).toEqual(['fresh']);
    const ready = candidate('ready', 'n');
    expect(names(fresh, ready)).toEqual(['ready']);
    const newer = candidate('newer', 'n', { createdAt: '2025-03-01T00:00:00Z' });
    expect(names(newer, ready)).toEqual(['newer']);
  });
});
