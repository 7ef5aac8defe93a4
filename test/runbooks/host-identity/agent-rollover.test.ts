import { describe, expect, it } from 'vitest';
import { awaitHostMark } from '../../../runbooks/host-identity/agent-rollover.ts';
import type {
  AgentPod,
  CiliumFacade,
  KubeFacade,
  KubeObject,
  ListOptions,
} from '../../../src/cluster/types.ts';
import { collectingGarbage } from '../../helpers/gc.ts';
import { filterTable } from './fixtures.ts';

const unused = () => Promise.reject(new Error('not used by this test'));

function agentPod(uid: string, ready: boolean, deleting = false): KubeObject {
  return {
    metadata: {
      name: `cilium-${uid}`,
      namespace: 'kube-system',
      uid,
      creationTimestamp: '2025-06-02T10:00:00Z',
      ...(deleting ? { deletionTimestamp: '2025-06-02T10:05:00Z' } : {}),
    },
    spec: { nodeName: 'node-a' },
    status: { conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }] },
  };
}

/** Each poll lists the next set of agent pods on the node (the last one repeats). */
function fakes(polls: KubeObject[][], hostMark: boolean) {
  let poll = 0;
  const execed: string[] = [];
  const kube: KubeFacade = {
    clusterName: 'fake',
    async list<T>(_resource: unknown, options: ListOptions<T>): Promise<T[]> {
      const pods = polls[Math.min(poll++, polls.length - 1)] ?? [];
      if (options.project === 'metadata') throw new Error('metadata lists are not faked');
      return pods.map(options.project).filter((item) => item !== undefined);
    },
    pages: () => {
      throw new Error('not used by this test');
    },
    get: unused,
    evict: unused,
    deletePod: unused,
    exec: unused,
  };
  const cilium: CiliumFacade = {
    namespace: 'kube-system',
    async iptablesSave(agent: AgentPod) {
      execed.push(agent.uid);
      const stdout = Buffer.from(filterTable(hostMark ? { hostMark: 'v1.16' } : {}));
      return { stdout, stderr: Buffer.alloc(0), exitCode: 0, command: ['iptables-save', '-t', 'filter'] };
    },
    agents: unused,
    findAgent: unused,
    config: unused,
    exec: unused,
    execFirst: unused,
    dbg: unused,
    forEachAgent: unused,
  };
  return { ctx: { kube, cilium, signal: new AbortController().signal }, execed };
}

describe('awaitHostMark', () => {
  it('waits past the old, Terminating agent for its Ready replacement, then reads the rule there', async () => {
    const { ctx, execed } = fakes(
      [[agentPod('old', true, true), agentPod('new', false)], [agentPod('new', true)]],
      true,
    );
    const seen = await awaitHostMark(ctx, 'node-a', 'old', 10_000);
    expect(seen.agent?.uid).toBe('new');
    expect(seen.reading?.state).toBe('present');
    expect(execed).toEqual(['new']);
  });

  it('gives up at its time limit with what it saw last', async () => {
    const { ctx } = fakes([[agentPod('new', true)]], false);
    const seen = await awaitHostMark(ctx, 'node-a', 'old', 100);
    expect(seen.agent?.uid).toBe('new');
    expect(seen.reading?.state).toBe('rule-missing');
  });

  it('gives up at its time limit however often memory is collected while it waits', async () => {
    const { ctx } = fakes([[agentPod('old', true)]], false);
    const stopCollecting = collectingGarbage();
    try {
      const started = performance.now();
      const seen = await awaitHostMark(ctx, 'node-a', 'old', 300);
      expect(seen).toEqual({});
      expect(performance.now() - started).toBeLessThan(2_000);
    } finally {
      stopCollecting();
    }
  });
});
