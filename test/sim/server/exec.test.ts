import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGENT_CONTAINER, CILIUM_NAMESPACE } from '../../../sim/cluster.ts';
import { type Sim, startSim } from '../../../sim/index.ts';
import { statusWithinTheUpgradeTurn } from '../../helpers/exec-turn.ts';
import { execIn } from '../harness.ts';
import { firstAgentPod } from '../scenarios/helpers.ts';

/** Exec through the whole API server (auth, pod lookup, WebSocket) with client-node's Exec. */
describe('exec through the simulated API server', () => {
  let sim: Sim;
  let agent: string;

  beforeAll(async () => {
    sim = await startSim({ scenarios: ['healthy'], controllers: false });
    agent = firstAgentPod(sim.cluster);
  });
  afterAll(() => sim.close());

  it('returns stdout and a Success status', async () => {
    const result = await execIn(sim, CILIUM_NAMESPACE, agent, AGENT_CONTAINER, [
      'cilium-dbg',
      'status',
      '-o',
      'json',
    ]);
    expect(result.status.status).toBe('Success');
    expect(JSON.parse(result.stdout)).toHaveProperty('kube-proxy-replacement');
  });

  it('returns stderr and the exit code of a failing command', async () => {
    const result = await execIn(sim, CILIUM_NAMESPACE, agent, AGENT_CONTAINER, ['cilium-dbg', 'bogus']);
    expect(result.stderr).toContain('unknown command "bogus"');
    expect(result.status).toMatchObject({ status: 'Failure', reason: 'NonZeroExitCode' });
    expect(result.status.details?.causes).toEqual([{ reason: 'ExitCode', message: '1' }]);
  });

  it('fails an unknown binary the way the container runtime does', async () => {
    const result = await execIn(sim, CILIUM_NAMESPACE, agent, AGENT_CONTAINER, ['no-such-tool']);
    expect(result.status.status).toBe('Failure');
    expect(result.status.message).toContain('executable file not found in $PATH');
  });

  it('refuses exec to a token without pods/exec, with the RBAC message', async () => {
    const reader = sim.issueToken('reader', [{ verbs: ['get', 'list'], resources: ['pods'] }]);
    await expect(
      execIn(sim, CILIUM_NAMESPACE, agent, AGENT_CONTAINER, ['true'], reader.token),
    ).rejects.toThrow(/403/);
  });

  it('rejects a container the pod does not have', async () => {
    await expect(execIn(sim, CILIUM_NAMESPACE, agent, 'nope', ['true'])).rejects.toThrow(/400/);
  });

  it("writes a command's whole answer with its 101, even with other execs served in the same turn", async () => {
    // Execs whose latency ends together are served in one event-loop turn; a TLS socket's second
    // write waits for the next setImmediate, so frames written after the 101 would reach the
    // client only after every other exec of that turn had run its command.
    sim.faults.set('exec', { latencyMs: 20 });
    try {
      const execs = Array.from({ length: 8 }, () => statusWithinTheUpgradeTurn(sim, agent));
      expect(await Promise.all(execs)).toEqual(Array(8).fill(true));
    } finally {
      sim.faults.clear('exec');
    }
  });
});
