import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { R } from '../../../sim/cluster.ts';
import { type Sim, startSim } from '../../../sim/index.ts';
import type { Pod } from '../../../sim/objects.ts';
import { buildScenario, type Plan } from '../../../sim/scenarios/index.ts';
import type { AgentPod, ClusterAccess } from '../../../src/cluster/types.ts';
import { accessTo, countRequests } from './fixtures.ts';

/** The commands a facade's exec calls ran, in order. */
function recordCommands(access: ClusterAccess): string[][] {
  const commands: string[][] = [];
  const exec = access.kube.exec.bind(access.kube);
  vi.spyOn(access.kube, 'exec').mockImplementation((namespace, pod, container, command, options) => {
    commands.push(command);
    return exec(namespace, pod, container, command, options);
  });
  return commands;
}

describe('CiliumFacade', () => {
  let sim: Sim;
  let plan: Plan;
  let access: ClusterAccess;

  beforeAll(async () => {
    const built = buildScenario(['unmanaged-pods'], { nodes: 8 });
    plan = built.plan;
    sim = await startSim({ cluster: built.cluster, controllers: false });
    access = accessTo(sim);
  });
  afterAll(() => sim.close());
  afterEach(() => {
    vi.restoreAllMocks();
    sim.faults.clear();
  });

  it('finds one agent per node with its readiness and container id, listed once', async () => {
    const requests = countRequests(sim);
    const agents = await access.cilium.agents();
    expect(agents.map((a) => a.node)).toEqual([...plan.nodes].sort());
    const notReady = agents.filter((a) => !a.ready).map((a) => a.node);
    expect(notReady).toEqual(plan.unmanagedPods?.notReadyAgentNodes);
    for (const agent of agents) {
      const pod = sim.cluster.store.get(R.pods, agent.namespace, agent.name) as Pod;
      expect(agent.uid).toBe(pod.metadata.uid);
      expect(agent.containerId).toMatch(/^containerd:\/\/[0-9a-f]{64}$/);
      expect(agent.containerId).toBe(
        pod.status?.containerStatuses?.find((c) => c.name === 'cilium-agent')?.containerID,
      );
    }
    expect(await access.cilium.agents()).toEqual(agents);
    // One agent found by a test, in node order, from the same list.
    const firstNotReady = agents.find((a) => !a.ready);
    expect(firstNotReady).toBeDefined();
    expect(await access.cilium.findAgent((a) => !a.ready)).toEqual(firstNotReady);
    expect(await access.cilium.findAgent(() => false)).toBeUndefined();
    expect(requests()).toBe(1);
  });

  it('reads cilium-config once', async () => {
    const requests = countRequests(sim);
    const config = await access.cilium.config();
    expect(config['routing-mode']).toBe('tunnel');
    expect(config['unmanaged-pod-watcher-interval']).toBe('15');
    await access.cilium.config();
    expect(requests()).toBe(1);
  });

  it('runs commands in the cilium-agent container', async () => {
    const [agent] = (await access.cilium.agents()) as [AgentPod];
    const result = await access.cilium.exec(agent, ['hostname']);
    expect(result.exitCode).toBe(0);
    expect(result.stdout.toString().trim()).toBe(agent.node);
  });

  it('uses cilium-dbg where the image has it', async () => {
    const [agent] = (await access.cilium.agents()) as [AgentPod];
    const commands = recordCommands(access);
    const result = await access.cilium.dbg(agent, ['version']);
    expect(result.command).toEqual(['cilium-dbg', 'version']);
    expect(result.exitCode).toBe(0);
    expect(commands).toEqual([['cilium-dbg', 'version']]);
  });

  it("saves iptables through the image's wrapper", async () => {
    const [agent] = (await access.cilium.agents()) as [AgentPod];
    const commands = recordCommands(access);
    const result = await access.cilium.iptablesSave(agent, 'filter');
    expect(result.command).toEqual(['iptables-save', '-t', 'filter']);
    expect(result.stdout.toString()).toContain('*filter');
    expect(result.stdout.toString()).toContain(':CILIUM_OUTPUT');
    expect(commands).toHaveLength(1);
  });

  it('falls back to the backend-specific iptables tools where the wrapper is missing', async () => {
    const [agent] = (await access.cilium.agents()) as [AgentPod];
    // A pod with a cilium-agent container but not the agent image: no iptables tools at all.
    const bare = sim.cluster.store.create<Pod>(R.pods, {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'not-an-agent', namespace: 'kube-system' },
      spec: { nodeName: agent.node, containers: [{ name: 'cilium-agent', image: 'busybox' }] },
      status: { phase: 'Running' },
    });
    const commands = recordCommands(access);
    const result = await access.cilium.iptablesSave(
      { ...agent, name: bare.metadata.name, uid: bare.metadata.uid as string },
      'nat',
    );
    expect(commands).toEqual([
      ['iptables-save', '-t', 'nat'],
      ['iptables-nft-save', '-t', 'nat'],
      ['iptables-legacy-save', '-t', 'nat'],
    ]);
    expect(result.command).toEqual(['iptables-legacy-save', '-t', 'nat']);
    expect(result.exitCode).toBe(127);
  });

  it('stops at the first alternative that runs, even when it fails', async () => {
    const [agent] = (await access.cilium.agents()) as [AgentPod];
    const result = await access.cilium.execFirst(agent, [['no-such-tool'], ['false'], ['true']]);
    expect(result.command).toEqual(['false']);
    expect(result.exitCode).toBe(1);
  });

  describe('forEachAgent', () => {
    it('runs at most `concurrency` agents at once and reports progress', async () => {
      sim.faults.set('exec', { latencyMs: 100 });
      let running = 0;
      let mostAtOnce = 0;
      const progress: [number, number][] = [];
      const results = await access.cilium.forEachAgent(
        async (agent) => {
          mostAtOnce = Math.max(mostAtOnce, ++running);
          try {
            return (await access.cilium.exec(agent, ['hostname'])).stdout.toString().trim();
          } finally {
            running--;
          }
        },
        { concurrency: 3, onProgress: (done, total) => progress.push([done, total]) },
      );
      expect(mostAtOnce).toBe(3);
      expect(results.map((r) => (r.ok ? r.value : r.error))).toEqual(results.map((r) => r.agent.node));
      expect(progress).toEqual(plan.nodes.map((_, i) => [i + 1, plan.nodes.length]));
    });

    it("keeps going past one agent's failure", async () => {
      const agents = await access.cilium.agents();
      const broken = agents[2] as AgentPod;
      const results = await access.cilium.forEachAgent(async (agent) => {
        if (agent.node === broken.node) throw new Error('agent unreachable');
        return agent.node;
      });
      expect(results.filter((r) => !r.ok)).toEqual([
        { agent: broken, ok: false, error: new Error('agent unreachable') },
      ]);
      expect(results.filter((r) => r.ok)).toHaveLength(agents.length - 1);
    });

    it('starts no more agents once the signal aborts', async () => {
      const controller = new AbortController();
      const started: string[] = [];
      const results = await access.cilium.forEachAgent(
        async (agent) => {
          started.push(agent.node);
          if (started.length === 2) controller.abort(new Error('run deadline passed'));
          return agent.node;
        },
        { concurrency: 1, signal: controller.signal },
      );
      expect(started).toHaveLength(2);
      expect(results.filter((r) => r.ok)).toHaveLength(2);
      expect(results.slice(2).every((r) => !r.ok && r.error.message === 'run deadline passed')).toBe(true);
    });
  });
});

describe('CiliumFacade on an image that predates cilium-dbg', () => {
  let sim: Sim;

  beforeAll(async () => {
    const { cluster } = buildScenario(['healthy'], { agentCli: 'cilium-only' });
    sim = await startSim({ cluster, controllers: false });
  });
  afterAll(() => sim.close());

  it('falls back from cilium-dbg to cilium', async () => {
    const access = accessTo(sim);
    const [agent] = (await access.cilium.agents()) as [AgentPod];
    const commands = recordCommands(access);
    const result = await access.cilium.dbg(agent, ['version']);
    expect(commands).toEqual([
      ['cilium-dbg', 'version'],
      ['cilium', 'version'],
    ]);
    expect(result.command).toEqual(['cilium', 'version']);
    expect(result.exitCode).toBe(0);
    expect(result.stdout.toString()).toMatch(/^Client: /);
  });
});
