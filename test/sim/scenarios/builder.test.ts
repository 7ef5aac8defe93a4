import { describe, expect, it } from 'vitest';
import { AGENT_CONTAINER, CILIUM_NAMESPACE, R } from '../../../sim/cluster.ts';
import type { KubeObject, Pod } from '../../../sim/objects.ts';
import { buildScenario } from '../../../sim/scenarios/index.ts';
import { agentPods, ciliumConfig, clock, endpoint, pods } from './helpers.ts';

const K8S_SUFFIX = '[bcdfghjklmnpqrstvwxz2456789]';

describe('the base EKS cluster', () => {
  const { cluster } = buildScenario(['healthy'], { now: clock });
  const nodes = cluster.store.list(R.nodes).items;

  it('names and labels nodes as EKS managed node groups do', () => {
    for (const node of nodes) {
      const { name, labels } = node.metadata;
      expect(name).toMatch(/^ip-10-0-\d{1,3}-\d{1,3}\.us-west-2\.compute\.internal$/);
      expect(labels).toMatchObject({
        'kubernetes.io/hostname': name,
        'topology.kubernetes.io/zone': expect.stringMatching(/^us-west-2[abc]$/),
        'topology.kubernetes.io/region': 'us-west-2',
        'eks.amazonaws.com/nodegroup': expect.stringMatching(/^(system|general)$/),
        'node.kubernetes.io/instance-type': expect.any(String),
      });
      const spec = node.spec as { providerID: string };
      expect(spec.providerID).toMatch(
        new RegExp(`^aws:///${labels?.['topology.kubernetes.io/zone']}/i-0[0-9a-f]{16}$`),
      );
      const status = node.status as {
        addresses: { type: string; address: string }[];
        conditions: { type: string; status: string }[];
        nodeInfo: { kubeletVersion: string };
      };
      const ip = name.slice(3, name.indexOf('.')).replaceAll('-', '.');
      expect(status.addresses).toEqual([
        { type: 'InternalIP', address: ip },
        { type: 'InternalDNS', address: name },
        { type: 'Hostname', address: name },
      ]);
      expect(status.conditions).toContainEqual(expect.objectContaining({ type: 'Ready', status: 'True' }));
      expect(status.nodeInfo.kubeletVersion).toMatch(/^v1\.33\.\d+-eks-[0-9a-f]{7}$/);
    }
  });

  it('registers a CiliumNode per node with its addresses, health endpoint and IPAM', () => {
    expect(cluster.store.count(R.ciliumnodes)).toBe(nodes.length);
    for (const node of nodes) {
      const cn = cluster.store.get<KubeObject>(R.ciliumnodes, undefined, node.metadata.name);
      const spec = cn?.spec as {
        addresses: { type: string; ip: string }[];
        health: { ipv4: string };
        ipam: { podCIDRs: string[] };
        'instance-id': string;
      };
      const internal = (node.status as { addresses: { address: string }[] }).addresses[0]?.address;
      expect(spec.addresses).toEqual([
        { type: 'InternalIP', ip: internal },
        { type: 'CiliumInternalIP', ip: expect.stringMatching(/^100\.\d+\.\d+\.1$/) },
      ]);
      expect(spec.health.ipv4).toMatch(/^100\.\d+\.\d+\.2$/);
      expect(spec.ipam.podCIDRs).toEqual([expect.stringMatching(/^100\.\d+\.\d+\.0\/24$/)]);
      expect((node.spec as { providerID: string }).providerID.endsWith(spec['instance-id'])).toBe(true);
    }
  });

  it('puts an ENI spec on CiliumNodes in ENI mode', () => {
    const { cluster: eni } = buildScenario(['healthy'], { now: clock, routingMode: 'native' });
    expect(ciliumConfig(eni)).toMatchObject({ ipam: 'eni', 'routing-mode': 'native' });
    const cn = eni.store.list(R.ciliumnodes).items[0];
    const spec = cn?.spec as {
      eni: Record<string, unknown>;
      ipam: { pool: Record<string, { resource: string }> };
    };
    expect(spec.eni).toMatchObject({
      'vpc-id': expect.stringMatching(/^vpc-0/),
      'security-groups': [expect.stringMatching(/^sg-0/)],
    });
    expect(Object.values(spec.ipam.pool)[0]?.resource).toMatch(/^eni-0[0-9a-f]{16}$/);
  });

  it('runs the cilium DaemonSet: one agent pod per node, cilium-agent first, hostNetwork, containerd ids', () => {
    const agents = agentPods(cluster);
    expect(agents.map((pod) => pod.spec.nodeName).sort()).toEqual(nodes.map((n) => n.metadata.name).sort());
    for (const pod of agents) {
      expect(pod.metadata.name).toMatch(new RegExp(`^cilium-${K8S_SUFFIX}{5}$`));
      expect(pod.metadata.ownerReferences?.[0]).toMatchObject({
        kind: 'DaemonSet',
        name: 'cilium',
        controller: true,
      });
      expect(pod.spec.containers[0]?.name).toBe(AGENT_CONTAINER);
      expect(pod.spec.hostNetwork).toBe(true);
      expect(pod.spec.initContainers?.map((c) => c.name)).toContain('mount-cgroup');
      expect(pod.status?.containerStatuses?.[0]?.containerID).toMatch(/^containerd:\/\/[0-9a-f]{64}$/);
      const agent = cluster.agentForPod(pod);
      expect(agent?.node).toBe(pod.spec.nodeName);
      expect(agent?.cgroup.containerPath).toContain(
        pod.status?.containerStatuses?.[0]?.containerID?.slice(13),
      );
    }
    expect(cluster.store.get(R.deployments, CILIUM_NAMESPACE, 'cilium-operator')).toBeDefined();
  });

  it('runs aws-node, kube-proxy and CoreDNS as EKS installs them', () => {
    const system = pods(cluster, 'kube-system');
    const awsNode = system.filter((pod) => pod.metadata.labels?.['k8s-app'] === 'aws-node');
    expect(awsNode).toHaveLength(nodes.length);
    for (const pod of awsNode) {
      expect(pod.metadata.labels?.['app.kubernetes.io/name']).toBe('aws-node');
      expect(pod.spec.hostNetwork).toBe(true);
    }
    expect(system.filter((pod) => pod.metadata.labels?.['k8s-app'] === 'kube-proxy')).toHaveLength(
      nodes.length,
    );
    const coredns = system.filter((pod) => pod.metadata.labels?.['k8s-app'] === 'kube-dns');
    expect(coredns.length).toBe(2);
    expect(coredns.every((pod) => !pod.spec.hostNetwork)).toBe(true);
  });

  it('chains Deployment → ReplicaSet → Pod by controller references', () => {
    const [pod] = pods(cluster, 'shop').filter((p) => p.metadata.labels?.app === 'frontend');
    const rsRef = pod?.metadata.ownerReferences?.[0];
    expect(rsRef).toMatchObject({
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      controller: true,
      blockOwnerDeletion: true,
    });
    const rs = cluster.store.get<KubeObject>(R.replicasets, 'shop', rsRef?.name as string);
    expect(rs?.metadata.uid).toBe(rsRef?.uid);
    expect(pod?.metadata.name).toMatch(new RegExp(`^${rs?.metadata.name}-${K8S_SUFFIX}{5}$`));
    const deployRef = rs?.metadata.ownerReferences?.[0];
    const deployment = cluster.store.get<KubeObject>(R.deployments, 'shop', 'frontend');
    expect(deployRef).toMatchObject({ kind: 'Deployment', name: 'frontend', uid: deployment?.metadata.uid });
    expect(deployment?.status).toMatchObject({ replicas: 3, readyReplicas: 3 });
  });

  it("gives each managed pod a CEP with the pod's address, its node's IP, and a shared identity per label set", () => {
    const frontend = pods(cluster, 'shop').filter((p) => p.metadata.labels?.app === 'frontend');
    const cart = pods(cluster, 'shop').find((p) => p.metadata.labels?.app === 'cart') as Pod;
    const status = (pod: Pod) =>
      endpoint(cluster, pod)?.status as {
        id: number;
        identity: { id: number; labels: string[] };
        networking: { addressing: { ipv4: string }[]; node: string };
        state: string;
      };
    for (const pod of frontend) {
      const cep = endpoint(cluster, pod);
      expect(cep?.metadata.ownerReferences?.[0]).toMatchObject({
        kind: 'Pod',
        name: pod.metadata.name,
        uid: pod.metadata.uid,
      });
      expect(status(pod)).toMatchObject({
        state: 'ready',
        networking: { addressing: [{ ipv4: pod.status?.podIP }], node: pod.status?.hostIP },
      });
      expect(status(pod).identity.id).toBeGreaterThanOrEqual(256);
      expect(status(pod).identity.labels).toContain('k8s:app=frontend');
      expect(status(pod).identity.labels.some((l) => l.includes('pod-template-hash'))).toBe(false);
    }
    expect(new Set(frontend.map((pod) => status(pod).identity.id)).size).toBe(1);
    expect(status(cart).identity.id).not.toBe(status(frontend[0] as Pod).identity.id);
    const onNode = pods(cluster).filter(
      (p) => endpoint(cluster, p) && p.spec.nodeName === frontend[0]?.spec.nodeName,
    );
    const ids = onNode.map((p) => status(p).id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('shares frozen labels, owner references and containers between the pods of a workload', () => {
    const [a, b] = pods(cluster, 'shop').filter((p) => p.metadata.labels?.app === 'frontend') as [Pod, Pod];
    expect(a.metadata.labels).toBe(b.metadata.labels);
    expect(a.metadata.ownerReferences).toBe(b.metadata.ownerReferences);
    expect(a.spec.containers).toBe(b.spec.containers);
    expect(a.status?.podIP).not.toBe(b.status?.podIP);
    expect(Object.isFrozen(a.spec.containers)).toBe(true);
  });

  it('writes cilium-config with the keys the runbooks read', () => {
    expect(ciliumConfig(cluster)).toMatchObject({
      'routing-mode': 'tunnel',
      'tunnel-protocol': 'vxlan',
      'tunnel-port': '8472',
      ipam: 'cluster-pool',
      'enable-ipv4': 'true',
      'kube-proxy-replacement': 'true',
      'bpf-lb-sock': 'true',
      'bpf-lb-sock-hostns-only': 'false',
      'cgroup-root': '/run/cilium/cgroupv2',
      'install-iptables-rules': 'true',
      'unmanaged-pod-watcher-interval': '15',
      'pod-restart-selector': 'k8s-app=kube-dns',
      'cluster-name': 'sim',
    });
  });
});

describe('version and tool variants', () => {
  const agentOf = (options: Parameters<typeof buildScenario>[1]) =>
    [...buildScenario(['healthy'], { now: clock, ...options }).cluster.agents.values()][0];

  it('follows an older Cilium: the single tunnel key, the cilium CLI, strict KPR, the 1.14 mark rule', () => {
    const { cluster } = buildScenario(['healthy'], { now: clock, ciliumVersion: '1.13.9' });
    const config = ciliumConfig(cluster);
    expect(config.tunnel).toBe('vxlan');
    expect(config['routing-mode']).toBeUndefined();
    expect(config['kube-proxy-replacement']).toBe('strict');
    const agent = [...cluster.agents.values()][0];
    expect(agent).toMatchObject({
      cli: 'cilium-only',
      kubeProxyReplacementMode: 'Strict',
      iptables: { markRuleVariant: 'v1.14' },
    });
    expect(agent?.logs[0]).toMatch(/^time="[^"]+" level=info msg=/);
  });

  it('logs in slog format from Cilium 1.18', () => {
    expect(agentOf({ ciliumVersion: '1.18.1' })?.logs[0]).toMatch(
      /^time=\d{4}-\d\d-\d\dT[\d:.]+Z level=info msg=/,
    );
  });

  it('takes each tool variant from the options', () => {
    expect(
      agentOf({
        agentCli: 'cilium-dbg-only',
        bpftool: 'legacy',
        iptablesBackend: 'legacy',
        kubeProxyReplacement: 'false',
        socketLB: false,
      }),
    ).toMatchObject({
      cli: 'cilium-dbg-only',
      bpftool: { spelling: 'legacy' },
      iptables: { backend: 'legacy' },
      kubeProxyReplacementMode: 'False',
      socketLB: false,
    });
    expect(agentOf({ kubeProxyReplacement: 'partial' })?.kubeProxyReplacementMode).toBe('Partial');
  });

  it('can label aws-node as a custom Helm install does: k8s-app only', () => {
    const { cluster } = buildScenario(['healthy'], { now: clock, awsNodeNameLabel: false });
    const awsNode = pods(cluster, 'kube-system').filter(
      (pod) => pod.metadata.labels?.['k8s-app'] === 'aws-node',
    );
    expect(awsNode.length).toBeGreaterThan(0);
    for (const pod of awsNode) expect(pod.metadata.labels?.['app.kubernetes.io/name']).toBeUndefined();
  });

  it('rejects impossible options by name', () => {
    expect(() => buildScenario(['healthy'], { nodes: 0 })).toThrow(
      /scenario option nodes must be a whole number/,
    );
    expect(() => buildScenario(['healthy'], { vxlanCause: 'bad' as never })).toThrow(
      /scenario option vxlanCause must be one of/,
    );
    expect(() => buildScenario(['healthy'], { unmanagedPodWatcherInterval: '15 min' })).toThrow(
      /unmanagedPodWatcherInterval/,
    );
  });

  it('refuses a cluster larger than the simulator holds, saying how large it may be', () => {
    expect(() => buildScenario(['healthy'], { nodes: 120_001 })).toThrow(
      'scenario option nodes must be a whole number from 1 to 120000, got 120001',
    );
    expect(() => buildScenario(['scale'], { nodes: 120_000, podsPerNode: 31 })).toThrow(
      'scenario options nodes x podsPerNode must be at most 3,600,000 pods (what the simulator holds in memory), got 120000 x 31',
    );
  });
});
