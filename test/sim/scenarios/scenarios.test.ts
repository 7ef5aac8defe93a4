import { describe, expect, it } from 'vitest';
import { AGENT_NOT_READY_TAINT, CILIUM_NAMESPACE, R } from '../../../sim/cluster.ts';
import type { KubeObject, Pod } from '../../../sim/objects.ts';
import { buildCluster, buildScenario, planOf, SCENARIOS } from '../../../sim/scenarios/index.ts';
import type { PodRef } from '../../../sim/scenarios/plan.ts';
import {
  agentPods,
  ciliumConfig,
  clock,
  endpoint,
  isReady,
  names,
  podNames,
  pods,
  unmanaged,
} from './helpers.ts';

const build = (scenarios: string[], options = {}) => buildScenario(scenarios, { now: clock, ...options });

function warningEvents(cluster: ReturnType<typeof buildCluster>): KubeObject[] {
  return cluster.store.list(R.events, { filter: (e) => e.type === 'Warning' }).items;
}

describe('healthy', () => {
  const { cluster, plan } = build(['healthy']);

  it('has at least three nodes, each with a ready agent and no agent-not-ready taint', () => {
    const nodes = cluster.store.list(R.nodes).items;
    expect(nodes.length).toBeGreaterThanOrEqual(3);
    for (const node of nodes) {
      expect(cluster.agents.get(node.metadata.name)?.ready).toBe(true);
      const taints = ((node.spec as { taints?: { key: string }[] }).taints ?? []).map((t) => t.key);
      expect(taints).not.toContain(AGENT_NOT_READY_TAINT);
    }
  });

  it('gives every Running non-hostNetwork pod a CEP, and every pod is Ready', () => {
    expect(unmanaged(cluster)).toEqual([]);
    expect(pods(cluster).filter((pod) => !isReady(pod))).toEqual([]);
    expect(cluster.store.count(R.ciliumendpoints)).toBe(
      pods(cluster).filter((p) => !p.spec.hostNetwork).length,
    );
  });

  it('has every agent with its hooks on the host root, the host mark rule, clean health and no drops', () => {
    for (const agent of cluster.agents.values()) {
      expect(agent.cgroup.mountIsHostRoot).toBe(true);
      expect(agent.socketLB).toBe(true);
      expect(agent.iptables.hostMarkRule).toBe(true);
      expect(agent.health.peers).toEqual({});
      expect(agent.drops).toEqual([]);
      expect(agent.logs.some((line) => line.includes('Mounted cgroupv2 filesystem'))).toBe(true);
      expect(agent.logs.some((line) => line.includes('Failed to mount cgroupv2'))).toBe(false);
    }
  });

  it('tunnels by default with VXLAN, and the node security groups allow 8472/udp, 4240/tcp and ICMP', () => {
    const config = ciliumConfig(cluster);
    expect(config['routing-mode']).toBe('tunnel');
    expect(config['tunnel-protocol']).toBe('vxlan');
    expect(config['tunnel-port']).toBe('8472');
    expect(config['install-iptables-rules']).toBe('true');
    const nodeGroups = new Set(Object.values(cluster.aws.instanceSecurityGroups).flat());
    for (const group of cluster.aws.securityGroups.filter((g) => nodeGroups.has(g.groupId))) {
      for (const source of nodeGroups) {
        const from = group.ingress.filter((rule) => rule.sourceGroupId === source);
        expect(from).toContainEqual({ protocol: 'udp', fromPort: 8472, toPort: 8472, sourceGroupId: source });
        expect(from).toContainEqual({ protocol: 'tcp', fromPort: 4240, toPort: 4240, sourceGroupId: source });
        expect(from).toContainEqual({ protocol: 'icmp', fromPort: -1, toPort: -1, sourceGroupId: source });
      }
    }
  });

  it('records no warning events and plans no incident', () => {
    expect(warningEvents(cluster)).toEqual([]);
    expect(plan).toEqual({ scenarios: ['healthy'], nodes: expect.any(Array) });
    expect(cluster.store.count(R.networkpolicies)).toBe(0);
  });
});

describe('unmanaged-pods', () => {
  const { cluster, plan } = build(['unmanaged-pods']);
  const planned = plan.unmanagedPods;
  if (!planned) throw new Error('no plan');
  const get = (ref: PodRef) => cluster.store.get<Pod>(R.pods, ref.namespace, ref.name) as Pod;

  it('plants exactly the intended unmanaged pods', () => {
    const intended = [
      ...planned.evictable,
      ...planned.blockedByBudget,
      ...planned.onNotReadyAgent,
      ...planned.young,
      ...planned.mirror,
    ];
    expect(podNames(unmanaged(cluster))).toEqual(names(intended));
    expect(planned.evictable.length).toBeGreaterThanOrEqual(3);
  });

  it('includes Deployment pods and DaemonSet pods with both broad tolerations among the targets', () => {
    const owners = planned.evictable.map((ref) => get(ref).metadata.ownerReferences?.[0]?.kind);
    expect(owners).toContain('ReplicaSet');
    expect(owners).toContain('DaemonSet');
    const tolerations = planned.evictable.flatMap((ref) => get(ref).spec.tolerations ?? []);
    expect(tolerations).toContainEqual({ operator: 'Exists' });
    expect(tolerations).toContainEqual({ effect: 'NoExecute', operator: 'Exists' });
  });

  it('puts one node under a not-ready agent, tainted, with its pods unmanaged', () => {
    expect(planned.notReadyAgentNodes).toHaveLength(1);
    const nodeName = planned.notReadyAgentNodes[0] as string;
    expect(cluster.agents.get(nodeName)?.ready).toBe(false);
    const node = cluster.store.mustGet<KubeObject>(R.nodes, undefined, nodeName);
    expect((node.spec as { taints: unknown[] }).taints).toContainEqual({
      key: AGENT_NOT_READY_TAINT,
      value: 'true',
      effect: 'NoExecute',
    });
    expect(planned.onNotReadyAgent.length).toBeGreaterThan(0);
    expect(planned.onNotReadyAgent.every((ref) => ref.node === nodeName)).toBe(true);
    const agent = agentPods(cluster).find((pod) => pod.spec.nodeName === nodeName) as Pod;
    expect(isReady(agent)).toBe(false);
  });

  it('keeps aws-node and other hostNetwork pods without CEPs, and never among the unmanaged', () => {
    expect(planned.awsNode.length).toBe(cluster.store.count(R.nodes));
    for (const ref of planned.awsNode) {
      const pod = get(ref);
      expect(pod.metadata.labels).toMatchObject({
        'k8s-app': 'aws-node',
        'app.kubernetes.io/name': 'aws-node',
      });
      expect(pod.spec.hostNetwork).toBe(true);
    }
    const hostNetworkNames = new Set(planned.hostNetwork.map((ref) => ref.name));
    expect([...hostNetworkNames].some((name) => name.startsWith('kube-proxy-'))).toBe(true);
    expect([...hostNetworkNames].some((name) => name.startsWith('node-exporter-'))).toBe(true);
    for (const ref of planned.hostNetwork) expect(endpoint(cluster, get(ref))).toBeUndefined();
  });

  it('blocks the budgeted pod: Ready, and its PodDisruptionBudget allows no disruption', () => {
    const [ref] = planned.blockedByBudget;
    expect(isReady(get(ref as PodRef))).toBe(true);
    const pdb = cluster.store.get<KubeObject>(
      R.poddisruptionbudgets,
      planned.budget.namespace,
      planned.budget.name,
    );
    expect(pdb?.status).toMatchObject({
      currentHealthy: 2,
      desiredHealthy: 2,
      expectedPods: 2,
      disruptionsAllowed: 0,
    });
  });

  it('has a young pod inside the grace period, and a mirror pod owned by its Node', () => {
    const young = get(planned.young[0] as PodRef);
    expect(
      Date.parse(clock().toISOString()) - Date.parse(young.metadata.creationTimestamp as string),
    ).toBeLessThan(30_000);
    const mirror = get(planned.mirror[0] as PodRef);
    expect(mirror.metadata.annotations?.['kubernetes.io/config.mirror']).toMatch(/^[0-9a-f]{32}$/);
    expect(mirror.metadata.ownerReferences?.[0]).toMatchObject({ kind: 'Node', name: mirror.spec.nodeName });
    expect(mirror.spec.hostNetwork).toBeUndefined();
  });

  it("sets the operator's watcher as the default chart does, covering only kube-dns", () => {
    const config = ciliumConfig(cluster);
    expect(config['unmanaged-pod-watcher-interval']).toBe('15');
    expect(config['pod-restart-selector']).toBe('k8s-app=kube-dns');
    const coredns = pods(cluster, 'kube-system').filter(
      (pod) => pod.metadata.labels?.['k8s-app'] === 'kube-dns',
    );
    expect(coredns.length).toBe(2);
    for (const pod of coredns) expect(endpoint(cluster, pod)).toBeDefined();
  });

  it('takes the watcher settings from the options', () => {
    const { cluster: other } = build(['unmanaged-pods'], {
      unmanagedPodWatcherInterval: '0',
      podRestartSelector: 'app.kubernetes.io/name!=aws-node',
    });
    expect(ciliumConfig(other)).toMatchObject({
      'unmanaged-pod-watcher-interval': '0',
      'pod-restart-selector': 'app.kubernetes.io/name!=aws-node',
    });
  });
});

describe('cgroup-private-ns', () => {
  const { cluster, plan } = build(['cgroup-private-ns']);

  it('breaks every agent: private namespace, own container cgroup as its mount, socket LB on', () => {
    expect(plan.cgroup?.brokenNodes).toHaveLength(cluster.agents.size);
    for (const agent of cluster.agents.values()) {
      expect(agent.cgroup).toMatchObject({
        mountIsHostRoot: false,
        privateNamespace: true,
        root: '/run/cilium/cgroupv2',
      });
      expect(agent.socketLB).toBe(true);
      expect(agent.logs.some((line) => line.includes('Failed to mount cgroupv2'))).toBe(true);
      expect(agent.logs.some((line) => line.includes('Mounted cgroupv2 filesystem'))).toBe(false);
    }
  });

  it("drops the mount-cgroup init container, and each agent's cgroup path names its container", () => {
    const ds = cluster.store.mustGet<KubeObject>(R.daemonsets, CILIUM_NAMESPACE, 'cilium');
    const template = (ds.spec as { template: { spec: Pod['spec'] } }).template.spec;
    expect(template.initContainers?.map((c) => c.name)).not.toContain('mount-cgroup');
    for (const pod of agentPods(cluster)) {
      expect(pod.spec.initContainers?.map((c) => c.name)).not.toContain('mount-cgroup');
      const id = pod.status?.containerStatuses?.[0]?.containerID?.replace('containerd://', '');
      const uid = (pod.metadata.uid as string).replaceAll('-', '_');
      expect(cluster.agentForPod(pod)?.cgroup.containerPath).toBe(
        `/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod${uid}.slice/cri-containerd-${id}.scope`,
      );
    }
  });

  it('can break only some nodes', () => {
    const { cluster: mixed, plan: mixedPlan } = build(['cgroup-private-ns'], { brokenCgroupNodes: 1 });
    const [broken] = mixedPlan.cgroup?.brokenNodes ?? [];
    expect(mixedPlan.cgroup?.healthyNodes).toHaveLength(mixed.agents.size - 1);
    for (const [node, agent] of mixed.agents) {
      expect(agent.cgroup.mountIsHostRoot).toBe(node !== broken);
      expect(agent.logs.some((line) => line.includes('Mounted cgroupv2 filesystem'))).toBe(node !== broken);
    }
  });
});

describe('host-identity-world', () => {
  const { cluster, plan } = build(['host-identity-world']);
  const planned = plan.hostIdentity;
  if (!planned) throw new Error('no plan');

  it('turns install-iptables-rules off, and no agent has the host mark rule', () => {
    expect(ciliumConfig(cluster)['install-iptables-rules']).toBe('false');
    for (const agent of cluster.agents.values()) {
      expect(agent.iptables.hostMarkRule).toBe(false);
      expect(agent.logs.some((line) => line.includes("--install-iptables-rules='false'"))).toBe(true);
    }
  });

  it('restricts ingress in one namespace to one port from a namespace selector', () => {
    const policy = cluster.store.get<KubeObject>(R.networkpolicies, planned.namespace, planned.networkPolicy);
    expect(policy?.spec).toMatchObject({
      policyTypes: ['Ingress'],
      ingress: [
        {
          from: [{ namespaceSelector: expect.any(Object) }],
          ports: [{ protocol: 'TCP', port: planned.port }],
        },
      ],
    });
  });

  it('leaves exactly the policy-selected pods not Ready, restarting, with probe-failure events', () => {
    expect(podNames(pods(cluster).filter((pod) => !isReady(pod)))).toEqual(names(planned.failingPods));
    for (const ref of planned.failingPods) {
      const pod = cluster.store.get<Pod>(R.pods, ref.namespace, ref.name) as Pod;
      expect(pod.status?.containerStatuses?.[0]?.restartCount).toBeGreaterThan(0);
      expect(endpoint(cluster, pod)).toBeDefined();
      const events = cluster.store.list(R.events, {
        namespace: ref.namespace,
        filter: (e) => (e.involvedObject as { uid: string }).uid === ref.uid,
      }).items;
      expect(events).toContainEqual(
        expect.objectContaining({
          type: 'Warning',
          reason: 'Unhealthy',
          message: expect.stringMatching(/^Readiness probe failed: /),
        }),
      );
    }
  });

  it('records world→pod Policy denied drops from the node IP in every ready agent', () => {
    expect(planned.nodesWithDrops.length).toBe(cluster.agents.size);
    for (const ref of planned.failingPods) {
      const pod = cluster.store.get<Pod>(R.pods, ref.namespace, ref.name) as Pod;
      const cep = endpoint(cluster, pod)?.status as { id: number; identity: { id: number } };
      expect(cep.identity.id).toBe(planned.identity);
      const drops = cluster.agents.get(ref.node)?.drops ?? [];
      expect(drops.length).toBeGreaterThan(0);
      for (const drop of drops) {
        expect(drop).toMatchObject({
          reason: 'Policy denied',
          sourceIdentity: 2,
          destinationIdentity: cep.identity.id,
          destination: `${pod.status?.podIP}:${planned.port}`,
          summary: 'tcp SYN',
          endpointId: cep.id,
        });
        expect(drop.source).toMatch(new RegExp(`^${pod.status?.hostIP?.replaceAll('.', '\\.')}:\\d+$`));
      }
    }
  });
});

describe('vxlan-blocked', () => {
  it('drops UDP between nodes: host probes pass, health-endpoint probes time out, for every peer', () => {
    const { cluster, plan } = build(['vxlan-blocked']);
    expect(plan.tunnel).toMatchObject({ cause: 'udp-blocked', protocol: 'vxlan', port: 8472 });
    for (const groupId of plan.tunnel?.securityGroups ?? []) {
      const group = cluster.aws.securityGroups.find((g) => g.groupId === groupId);
      expect(group?.ingress.some((rule) => rule.protocol === 'udp')).toBe(false);
    }
    const nodes = cluster.store.list(R.nodes).items.map((n) => n.metadata.name);
    for (const [node, agent] of cluster.agents) {
      expect(Object.keys(agent.health.peers).sort()).toEqual(nodes.filter((n) => n !== node).sort());
      for (const [peer, result] of Object.entries(agent.health.peers)) {
        const cn = cluster.store.mustGet<KubeObject>(R.ciliumnodes, undefined, peer);
        const healthIp = (cn.spec as { health: { ipv4: string } }).health.ipv4;
        expect(result.host).toEqual({ icmp: '', http: '' });
        expect(result.endpoint.icmp).toBe('Connection timed out');
        expect(result.endpoint.http).toBe(
          `Get "http://${healthIp}:4240/hello": context deadline exceeded (Client.Timeout exceeded while awaiting headers)`,
        );
      }
    }
  });

  it('blocks the health port instead: the host HTTP probe fails, the tunnelled endpoint probes pass', () => {
    const { cluster } = build(['vxlan-blocked'], { vxlanCause: 'health-port-blocked' });
    const results = [...cluster.agents.values()].flatMap((agent) => Object.values(agent.health.peers));
    expect(results.length).toBeGreaterThan(0);
    for (const result of results) {
      expect(result.host.icmp).toBe('');
      expect(result.host.http).toMatch(/:4240\/hello": context deadline exceeded/);
      expect(result.endpoint).toEqual({ icmp: '', http: '' });
    }
  });

  it('blocks ICMP instead: only the host ICMP probe fails', () => {
    const { cluster } = build(['vxlan-blocked'], { vxlanCause: 'icmp-blocked' });
    const results = [...cluster.agents.values()].flatMap((agent) => Object.values(agent.health.peers));
    expect(results.length).toBeGreaterThan(0);
    for (const result of results) {
      expect(result).toEqual({
        host: { icmp: 'Connection timed out', http: '' },
        endpoint: { icmp: '', http: '' },
      });
    }
  });

  it('follows Geneve and its port', () => {
    const { cluster, plan } = build(['vxlan-blocked'], { tunnelProtocol: 'geneve' });
    expect(ciliumConfig(cluster)).toMatchObject({ 'tunnel-protocol': 'geneve', 'tunnel-port': '6081' });
    expect(plan.tunnel).toMatchObject({ protocol: 'geneve', port: 6081 });
  });

  it('refuses native routing, which has no tunnel to block', () => {
    expect(() => build(['vxlan-blocked'], { routingMode: 'native' })).toThrow(
      /vxlan-blocked needs routingMode "tunnel"/,
    );
  });
});

describe('all', () => {
  const { cluster, plan } = build(['all']);

  it('plants all four incidents', () => {
    expect(plan.unmanagedPods?.evictable.length).toBeGreaterThan(0);
    expect(plan.cgroup?.brokenNodes.length).toBeGreaterThan(0);
    expect(plan.hostIdentity?.failingPods.length).toBeGreaterThan(0);
    expect(plan.tunnel?.cause).toBe('udp-blocked');
    expect(ciliumConfig(cluster)['install-iptables-rules']).toBe('false');
  });

  it('keeps the evidence independent', () => {
    const planned = plan.unmanagedPods;
    const cgroup = plan.cgroup;
    if (!planned || !cgroup) throw new Error('no plan');
    // Unmanaged pods are exactly the planted ones, none from the probe-failure namespace.
    const intended = [
      ...planned.evictable,
      ...planned.blockedByBudget,
      ...planned.onNotReadyAgent,
      ...planned.young,
      ...planned.mirror,
    ];
    expect(podNames(unmanaged(cluster))).toEqual(names(intended));
    expect(intended.some((ref) => ref.namespace === plan.hostIdentity?.namespace)).toBe(false);
    // Only the probe-failure pods and the not-ready agent are unready.
    const unready = pods(cluster).filter((pod) => !isReady(pod));
    const agentOnNotReady = agentPods(cluster).filter((pod) =>
      planned.notReadyAgentNodes.includes(pod.spec.nodeName as string),
    );
    expect(podNames(unready)).toEqual(
      podNames([
        ...agentOnNotReady,
        ...(plan.hostIdentity?.failingPods ?? []).map(
          (ref) => cluster.store.get<Pod>(R.pods, ref.namespace, ref.name) as Pod,
        ),
      ]),
    );
    // The cgroup fault is on some agents only, none hosting unmanaged pods or the not-ready agent.
    expect(cgroup.healthyNodes.length).toBeGreaterThan(0);
    const unmanagedNodes = new Set([...intended.map((ref) => ref.node), ...planned.notReadyAgentNodes]);
    for (const node of cgroup.brokenNodes) expect(unmanagedNodes.has(node)).toBe(false);
    // Probe-failure pods only on nodes with a ready agent.
    for (const ref of plan.hostIdentity?.failingPods ?? [])
      expect(planned.notReadyAgentNodes).not.toContain(ref.node);
  });
});

describe('composition and names', () => {
  it('composes scenarios given as one comma-separated name or as a list', () => {
    const joined = build(['unmanaged-pods,vxlan-blocked']).plan;
    const listed = build(['unmanaged-pods', 'vxlan-blocked']).plan;
    expect(joined.unmanagedPods).toBeDefined();
    expect(joined.tunnel).toBeDefined();
    expect(joined.cgroup).toBeUndefined();
    expect(joined.unmanagedPods).toEqual(listed.unmanagedPods);
  });

  it('applies a scenario once even when named twice or inside all', () => {
    expect(() => build(['all', 'unmanaged-pods', 'unmanaged-pods'])).not.toThrow();
  });

  it('fails on an unknown scenario, naming it and the known ones', () => {
    expect(() => buildCluster(['unmanaged-pods', 'no-such-thing'])).toThrow(
      `unknown scenario "no-such-thing"; known scenarios: ${Object.keys(SCENARIOS).join(', ')}`,
    );
  });

  it('builds healthy from no names, and remembers the plan of each cluster', () => {
    const cluster = buildCluster([], { now: clock });
    expect(planOf(cluster)?.scenarios).toEqual(['healthy']);
  });

  it('is deterministic for a seed and a clock, and differs with the seed', () => {
    const snapshot = (seed: number) =>
      JSON.stringify(
        pods(build(['all'], { seed }).cluster).map((pod) => [
          pod.metadata.name,
          pod.metadata.uid,
          pod.status?.podIP,
        ]),
      );
    expect(snapshot(7)).toBe(snapshot(7));
    expect(snapshot(7)).not.toBe(snapshot(8));
  });
});
