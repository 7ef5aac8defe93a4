import { CoreV1Api, CustomObjectsApi } from '@kubernetes/client-node';
import { afterEach, describe, expect, it } from 'vitest';
import { AGENT_CONTAINER, AGENT_LABEL, CILIUM_NAMESPACE } from '../../sim/cluster.ts';
import { type Sim, startSim } from '../../sim/index.ts';
import { execIn, kubeConfigFor } from './harness.ts';

/**
 * Each scenario's evidence, read the way an engineer (or a runbook) reads it: through the
 * Kubernetes API and exec into the Cilium agents, never from the simulator's internals.
 */
let sim: Sim | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

async function start(scenario: string): Promise<Sim> {
  sim = await startSim({ scenarios: [scenario], controllers: false });
  return sim;
}

async function agents(current: Sim): Promise<string[]> {
  const pods = await kubeConfigFor(current)
    .makeApiClient(CoreV1Api)
    .listNamespacedPod({ namespace: CILIUM_NAMESPACE, labelSelector: `k8s-app=${AGENT_LABEL['k8s-app']}` });
  return pods.items.map((pod) => pod.metadata?.name as string);
}

async function inEachAgent(current: Sim, command: string[]): Promise<string[]> {
  const outputs: string[] = [];
  for (const agent of await agents(current)) {
    const result = await execIn(current, CILIUM_NAMESPACE, agent, AGENT_CONTAINER, command);
    expect(result.status.status, `${command.join(' ')} in ${agent}: ${result.stderr}`).toBe('Success');
    outputs.push(result.stdout);
  }
  return outputs;
}

/** Running, non-hostNetwork pods with no CiliumEndpoint of the same name, read through the API. */
async function unmanagedPods(current: Sim): Promise<string[]> {
  const kc = kubeConfigFor(current);
  const pods = await kc
    .makeApiClient(CoreV1Api)
    .listPodForAllNamespaces({ fieldSelector: 'status.phase=Running,spec.hostNetwork=false' });
  const ceps = (await kc
    .makeApiClient(CustomObjectsApi)
    .listClusterCustomObject({ group: 'cilium.io', version: 'v2', plural: 'ciliumendpoints' })) as {
    items: { metadata: { namespace: string; name: string } }[];
  };
  const managed = new Set(ceps.items.map((cep) => `${cep.metadata.namespace}/${cep.metadata.name}`));
  return pods.items
    .map((pod) => `${pod.metadata?.namespace}/${pod.metadata?.name}`)
    .filter((key) => !managed.has(key));
}

const HOST_MARK = 'cilium: host->any mark as from host';
const SOCKET_HOOK = /cil_sock4_conne/;

describe('scenario evidence through the API and exec', () => {
  it('healthy: hooks on the real cgroup root, host-mark rule present, every health probe OK, every pod managed', async () => {
    const current = await start('healthy');
    for (const out of await inEachAgent(current, ['stat', '-c', '%i', '/run/cilium/cgroupv2']))
      expect(out.trim()).toBe('1');
    for (const out of await inEachAgent(current, [
      'bpftool',
      '-j',
      'cgroup',
      'tree',
      '/run/cilium/cgroupv2',
    ])) {
      const tree = JSON.parse(out) as { cgroup: string; programs: { name: string }[] }[];
      expect(tree[0]?.cgroup).toBe('/run/cilium/cgroupv2');
      expect(tree[0]?.programs.map((p) => p.name).join(' ')).toMatch(SOCKET_HOOK);
    }
    for (const out of await inEachAgent(current, ['iptables-save', '-t', 'filter']))
      expect(out).toContain(HOST_MARK);
    for (const out of await inEachAgent(current, ['cilium-health', 'status', '-o', 'json'])) {
      const health = JSON.parse(out) as {
        nodes: { host: { 'primary-address': { icmp: { status?: string } } } }[];
      };
      expect(health.nodes.length).toBeGreaterThan(1);
      // A successful probe omits `status` (Go omitempty); a failed one carries the error text.
      for (const node of health.nodes) expect(node.host['primary-address'].icmp.status ?? '').toBe('');
    }
    expect(await unmanagedPods(current)).toEqual([]);
  });

  it('unmanaged-pods: Running non-hostNetwork pods without a CiliumEndpoint', async () => {
    const current = await start('unmanaged-pods');
    const kc = kubeConfigFor(current);
    const unmanaged = await unmanagedPods(current);
    expect(unmanaged.length).toBeGreaterThan(2);
    const awsNode = await kc
      .makeApiClient(CoreV1Api)
      .listNamespacedPod({ namespace: 'kube-system', labelSelector: 'k8s-app=aws-node' });
    expect(awsNode.items.length).toBeGreaterThan(0);
    for (const pod of awsNode.items) expect(pod.spec?.hostNetwork).toBe(true);
  });

  it('cgroup-private-ns: the agent sees a cgroup root that is not inode 1, in a private cgroup namespace', async () => {
    const current = await start('cgroup-private-ns');
    const inodes = await inEachAgent(current, ['stat', '-c', '%i', '/run/cilium/cgroupv2']);
    expect(inodes.some((out) => out.trim() !== '1')).toBe(true);
    const namespaces = await inEachAgent(current, ['readlink', '/proc/self/ns/cgroup']);
    expect(namespaces.some((out) => out.trim() !== 'cgroup:[4026531835]')).toBe(true);
    // From inside, the broken agent still sees its hooks at the walk root: only the inode tells.
    for (const out of await inEachAgent(current, ['bpftool', 'cgroup', 'tree', '/run/cilium/cgroupv2'])) {
      expect(out).toMatch(SOCKET_HOOK);
    }
  });

  it('host-identity-world: no host-mark rule, and probes dropped as world', async () => {
    const current = await start('host-identity-world');
    for (const out of await inEachAgent(current, ['iptables-save', '-t', 'filter']))
      expect(out).not.toContain(HOST_MARK);
    const agent = (await agents(current))[0] as string;
    const monitor = await execIn(current, CILIUM_NAMESPACE, agent, AGENT_CONTAINER, [
      'timeout',
      '1',
      'cilium-dbg',
      'monitor',
      '--type',
      'drop',
    ]);
    expect(monitor.stdout).toMatch(/drop \(Policy denied\).*identity world->\d+/);
    const config = await kubeConfigFor(current)
      .makeApiClient(CoreV1Api)
      .readNamespacedConfigMap({ namespace: 'kube-system', name: 'cilium-config' });
    expect(config.data?.['install-iptables-rules']).toBe('false');
  });

  it('vxlan-blocked: tunnel routing, and health endpoints on other nodes unreachable', async () => {
    const current = await start('vxlan-blocked');
    const config = await kubeConfigFor(current)
      .makeApiClient(CoreV1Api)
      .readNamespacedConfigMap({ namespace: 'kube-system', name: 'cilium-config' });
    expect(config.data?.['routing-mode']).toBe('tunnel');
    const failing = (await inEachAgent(current, ['cilium-health', 'status', '-o', 'json'])).flatMap((out) =>
      (
        JSON.parse(out) as {
          nodes: { 'health-endpoint'?: { 'primary-address': { icmp: { status?: string } } } }[];
        }
      ).nodes.filter((node) => node['health-endpoint']?.['primary-address'].icmp.status),
    );
    expect(failing.length).toBeGreaterThan(0);
  });
});
