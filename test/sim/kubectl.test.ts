import { execFile } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CILIUM_NAMESPACE, R } from '../../sim/cluster.ts';
import { type Sim, startSim } from '../../sim/index.ts';
import { firstAgentPod } from './scenarios/helpers.ts';

const run = promisify(execFile);

/**
 * Drives the `kubectl` on PATH against the simulator with the kubeconfig it writes, exactly as a
 * person would. Proves discovery, short names, tables, YAML output, delete and exec over WebSocket.
 */
describe('kubectl against the simulator', () => {
  let sim: Sim;
  let env: NodeJS.ProcessEnv;

  const kubectl = async (...args: string[]) => {
    try {
      const { stdout } = await run('kubectl', args, { env, timeout: 60_000 });
      return stdout;
    } catch (error) {
      const failed = error as { stderr?: string; stdout?: string; message: string };
      throw new Error(`kubectl ${args.join(' ')} failed: ${failed.stderr || failed.message}`);
    }
  };

  beforeAll(async () => {
    sim = await startSim({ scenarios: ['all'] });
    const dir = await mkdtemp(join(tmpdir(), 'responder-kubectl-'));
    const kubeconfig = join(dir, 'kubeconfig');
    await writeFile(kubeconfig, sim.kubeconfig(), { mode: 0o600 });
    env = { ...process.env, KUBECONFIG: kubeconfig, KUBECACHEDIR: join(dir, 'cache'), HOME: dir };
  });
  afterAll(() => sim?.close());

  const agentPod = () => firstAgentPod(sim.cluster);

  it('get pods -A lists every pod with its namespace, readiness and status', async () => {
    const out = await kubectl('get', 'pods', '-A');
    const header = out.split('\n')[0] ?? '';
    expect(header).toMatch(/^NAMESPACE\s+NAME\s+READY\s+STATUS\s+RESTARTS\s+AGE/);
    const rows = out.trim().split('\n').slice(1);
    expect(rows).toHaveLength(sim.cluster.store.count(R.pods));
    expect(out).toContain(agentPod());
    expect(out).toMatch(/Running/);
  });

  it('get nodes shows every node with its status and version', async () => {
    const out = await kubectl('get', 'nodes');
    expect(out.split('\n')[0]).toMatch(/^NAME\s+STATUS\s+ROLES\s+AGE\s+VERSION/);
    expect(out.trim().split('\n').slice(1)).toHaveLength(sim.cluster.store.count(R.nodes));
    expect(out).toMatch(/Ready/);
  });

  it('get cep -A resolves the short name to ciliumendpoints.cilium.io', async () => {
    const out = await kubectl('get', 'cep', '-A');
    expect(out.trim().split('\n').slice(1)).toHaveLength(sim.cluster.store.count(R.ciliumendpoints));
    const anyCep = sim.cluster.store.list(R.ciliumendpoints, { limit: 1 }).items[0];
    expect(out).toContain(anyCep?.metadata.name as string);
  });

  it('get cm -n kube-system cilium-config -o yaml prints the agent configuration', async () => {
    const out = await kubectl('get', 'cm', '-n', 'kube-system', 'cilium-config', '-o', 'yaml');
    expect(out).toMatch(/^apiVersion: v1$/m);
    expect(out).toMatch(/^kind: ConfigMap$/m);
    expect(out).toMatch(/routing-mode:/);
    expect(out).toMatch(/install-iptables-rules: "false"/);
  });

  it('delete pod removes the pod, and its ReplicaSet brings a new one', async () => {
    const victim = sim.cluster.store.list(R.pods, {
      filter: (pod) =>
        pod.metadata.ownerReferences?.[0]?.kind === 'ReplicaSet' &&
        pod.metadata.namespace !== CILIUM_NAMESPACE,
      limit: 1,
    }).items[0];
    if (!victim) throw new Error('the scenario has no ReplicaSet pod');
    const { namespace, name } = victim.metadata as { namespace: string; name: string };
    const owner = victim.metadata.ownerReferences?.[0]?.name;
    const out = await kubectl('delete', 'pod', '-n', namespace, name);
    expect(out).toContain(`pod "${name}" deleted`);
    expect(sim.cluster.store.get(R.pods, namespace, name)).toBeUndefined();
    const siblings = await kubectl('get', 'pods', '-n', namespace, '-o', 'name');
    const replacements = siblings.split('\n').filter((line) => line.startsWith(`pod/${owner}-`));
    expect(replacements.length).toBeGreaterThan(0);
  });

  it('exec runs bpftool in the Cilium agent over WebSocket', async () => {
    const out = await kubectl('exec', '-n', 'kube-system', agentPod(), '--', 'bpftool', 'cgroup', 'tree');
    expect(out.split('\n')[0]).toBe('CgroupPath');
    expect(out).toMatch(/cil_sock4_connect|cil_sock4_conne/);
  });

  it('exec reports a failing command with its exit code', async () => {
    await expect(kubectl('exec', '-n', 'kube-system', agentPod(), '--', 'no-such-tool')).rejects.toThrow(
      /exit code|executable file not found/,
    );
  });
});
