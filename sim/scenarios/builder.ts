import type { LabelSelector } from '../../src/cluster/label-selector.ts';
import type { AgentState } from '../agent-state.ts';
import { AGENT_CONTAINER, AGENT_NOT_READY_TAINT, CILIUM_NAMESPACE, R, SimCluster } from '../cluster.ts';
import type { KubeObject, OwnerReference, Pod, PodSpec, Toleration } from '../objects.ts';
import { budgetCounts, budgetStatus, type PodDisruptionBudget } from '../pdb.ts';
import { addressPlan } from './addresses.ts';
import { Allocations, attachAllocations } from './allocations.ts';
import { deriveHealth } from './aws.ts';
import { addEndpoint } from './endpoints.ts';
import { addNodes, type NodeRecord } from './fleet.ts';
import { applyAgentConfig, containerIdOf, makeAgentState } from './make/agent.ts';
import { agentTemplate, ciliumConfigData, hasMountCgroup, operatorTemplate } from './make/cilium.ts';
import { type EventInput, recordEvent } from './make/events.ts';
import { controllerRef, isoTime } from './make/meta.ts';
import { type ContainerHealth, makePod } from './make/pod.ts';
import { appTemplate, awsNodeTemplate, coreDnsTemplate, kubeProxyTemplate } from './make/system.ts';
import {
  type Counts,
  daemonPodLabels,
  makeDaemonSet,
  makeDeployment,
  makeReplicaSet,
  podSpecOf,
  type TemplateInput,
  templateSpec,
} from './make/workloads.ts';
import type { ResolvedOptions } from './options.ts';
import type { Plan } from './plan.ts';
import { Random } from './random.ts';
import { spawnPod } from './spawn.ts';

export type { NodeRecord } from './fleet.ts';

const DAY = 86_400;
/** How long ago things happened, in seconds before the build's `now`. */
const AGE = { cluster: 30 * DAY, nodes: 6 * DAY, systemPods: 6 * DAY - 40, apps: 2 * DAY };

/** A per-pod deviation from the workload's healthy default. */
export interface PodVariant {
  /** The agent never managed the pod: no CiliumEndpoint. */
  unmanaged?: boolean;
  /** Started this many seconds ago instead of with its workload. */
  ageSeconds?: number;
  health?: ContainerHealth;
}

export interface WorkloadInput extends TemplateInput {
  namespace: string;
  name: string;
  /** Seconds since the workload was created and its pods started. Default two days. */
  ageSeconds?: number;
  /** Where pods go. Deployment: round robin over these (default: nodes whose agent is ready). */
  nodes?: readonly NodeRecord[];
  variant?: (index: number, node: NodeRecord) => PodVariant;
}

interface Placement {
  node: NodeRecord;
  variant: PodVariant;
}

/** What all pods of one workload share. */
interface PodShape {
  prefix: string;
  labels: Readonly<Record<string, string>>;
  owners: readonly OwnerReference[];
  spec: PodSpec;
  /** A DaemonSet's: each pod's spec pinned to its node. */
  pinnedToNode?: boolean;
  /** When the workload's pods started, unless a variant says otherwise. */
  startedAt: string;
}

const READY: ContainerHealth = { kind: 'ready' };
const STARTING: ContainerHealth = { kind: 'starting' };
const AGENT_NOT_READY = { key: AGENT_NOT_READY_TAINT, effect: 'NoExecute' };

/** Whether `tolerations` tolerate a taint, by the scheduler's matching rules. */
function tolerates(tolerations: readonly Toleration[], taint: { key: string; effect: string }): boolean {
  return tolerations.some(
    (t) =>
      (t.effect === undefined || t.effect === taint.effect) &&
      (t.key === undefined ? t.operator === 'Exists' : t.key === taint.key),
  );
}

function countsOf(placements: readonly Placement[]): Counts {
  return {
    current: placements.length,
    ready: placements.filter((p) => (p.variant.health ?? READY).kind === 'ready').length,
  };
}

/**
 * Builds a realistic EKS + Cilium cluster into a SimCluster, cheaply: the pods of a workload share
 * their frozen labels, owner references, specs and conditions, so hundreds of thousands of pods
 * fit in memory. Deterministic for a seed and a clock.
 */
export class ClusterBuilder {
  readonly cluster: SimCluster;
  readonly options: ResolvedOptions;
  readonly random: Random;
  readonly now: Date;
  readonly nodes: NodeRecord[] = [];
  private readonly nodesByName = new Map<string, NodeRecord>();
  readonly plan: Plan;
  private readonly allocations: Allocations;
  private placements = 0;
  private ciliumConfig: Record<string, string> = {};
  private agentTemplateMountsCgroup = false;
  private readonly agentStarts = new Map<string, Date>();

  constructor(options: ResolvedOptions, scenarios: string[]) {
    this.options = options;
    this.now = options.now();
    this.random = new Random(options.seed);
    this.cluster = new SimCluster({
      name: options.clusterName,
      now: options.now,
      newUid: () => this.random.uuid(),
    });
    this.allocations = new Allocations(this.random, options.clusterName, addressPlan(options.nodes));
    attachAllocations(this.cluster, this.allocations);
    this.plan = { scenarios, nodes: [] };
  }

  get store() {
    return this.cluster.store;
  }

  ago(seconds: number): Date {
    return new Date(this.now.getTime() - seconds * 1000);
  }

  nodeNamed(name: string): NodeRecord {
    const found = this.nodesByName.get(name);
    if (!found) throw new Error(`no node named ${name}`);
    return found;
  }

  /** Only these pod label keys make an identity from now on (see Allocations.identityLabelKeys). */
  restrictIdentityLabels(keys: readonly string[]): void {
    this.allocations.identityLabelKeys = new Set(keys);
  }

  /** Nodes whose agent is ready: where pods without a blanket toleration run. */
  readyNodes(): NodeRecord[] {
    return this.nodes.filter((node) => node.agentReady);
  }

  agent(node: NodeRecord): AgentState {
    return this.cluster.agents.get(node.name) as AgentState;
  }

  namespace(name: string, labels: Record<string, string> = {}): KubeObject {
    return this.store.create(R.namespaces, {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: {
        name,
        creationTimestamp: isoTime(this.ago(AGE.cluster)),
        labels: { 'kubernetes.io/metadata.name': name, ...labels },
      },
      spec: { finalizers: ['kubernetes'] },
      status: { phase: 'Active' },
    });
  }

  /** Everything a healthy cluster has before any scenario adds its evidence. */
  installBase(): void {
    for (const ns of ['default', 'kube-system', 'kube-public', 'kube-node-lease']) this.namespace(ns);
    for (const record of addNodes(this.cluster, this.options, this.allocations, this.ago(AGE.nodes))) {
      this.nodes.push(record);
      this.nodesByName.set(record.name, record);
    }
    this.ciliumConfig = ciliumConfigData(this.options);
    this.store.create(R.configmaps, {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: {
        name: 'cilium-config',
        namespace: CILIUM_NAMESPACE,
        creationTimestamp: isoTime(this.ago(AGE.cluster)),
      },
      data: this.ciliumConfig,
    });
    const system = { namespace: CILIUM_NAMESPACE, ageSeconds: AGE.systemPods };
    this.installAgents();
    this.deployment({ ...system, name: 'cilium-operator', replicas: 2, ...operatorTemplate(this.options) });
    this.daemonSet({ ...system, name: 'aws-node', ...awsNodeTemplate(this.options.awsNodeNameLabel) });
    if (this.options.kubeProxy) this.daemonSet({ ...system, name: 'kube-proxy', ...kubeProxyTemplate() });
    this.deployment({ ...system, name: 'coredns', replicas: 2, ...coreDnsTemplate() });
    this.namespace('shop');
    this.deployment({
      namespace: 'shop',
      name: 'frontend',
      replicas: 3,
      ...appTemplate({ app: 'frontend' }),
    });
    this.deployment({
      namespace: 'shop',
      name: 'cart',
      replicas: 2,
      ...appTemplate({ app: 'cart' }, 'public.ecr.aws/docker/library/redis:7.4'),
    });
  }

  /** Work that needs every scenario's changes: cilium-health results from the final security groups. */
  finish(): void {
    deriveHealth(this.cluster.agents, this.cluster.aws, this.nodes, this.options);
    this.plan.nodes = this.nodes.map((node) => node.name);
  }

  /** The `cilium` DaemonSet, and for each of its pods the agent state exec answers from. */
  private installAgents(): void {
    const template = agentTemplate(this.options);
    const pods = this.daemonSet({
      namespace: CILIUM_NAMESPACE,
      name: 'cilium',
      ...template,
      ageSeconds: AGE.systemPods,
      variant: (_, node) => ({ health: node.agentReady ? READY : STARTING }),
    });
    this.agentTemplateMountsCgroup = hasMountCgroup(template);
    for (const pod of pods) {
      const node = pod.spec.nodeName as string;
      const state = makeAgentState(this.options, {
        node,
        ready: this.nodeNamed(node).agentReady,
        // The container runtime's default on cgroup v2 hosts.
        privateNamespace: true,
        podUid: pod.metadata.uid as string,
        containerId: containerIdOf(pod, AGENT_CONTAINER),
        containerInode: 2000 + this.random.int(98_000),
      });
      const startedAt = new Date(pod.status?.startTime as string);
      applyAgentConfig(state, this.ciliumConfig, this.agentTemplateMountsCgroup, startedAt);
      this.agentStarts.set(node, startedAt);
      this.cluster.agents.set(node, state);
    }
  }

  /** Changes an agent's node-level facts; the agent then re-derives what it takes from its config. */
  reconfigureAgent(node: NodeRecord, change: (state: AgentState) => void): void {
    const state = this.agent(node);
    change(state);
    applyAgentConfig(
      state,
      this.ciliumConfig,
      this.agentTemplateMountsCgroup,
      this.agentStarts.get(node.name) as Date,
    );
  }

  /** A Deployment, its ReplicaSet, and its pods spread round robin over `nodes`. */
  deployment(input: WorkloadInput & { replicas: number }): Pod[] {
    const nodes = input.nodes ?? this.readyNodes();
    const first = this.placements++;
    const placements = Array.from({ length: input.replicas }, (_, i): Placement => {
      const node = nodes[(first + i) % nodes.length] as NodeRecord;
      return { node, variant: input.variant?.(i, node) ?? {} };
    });
    const createdAt = isoTime(this.ago(input.ageSeconds ?? AGE.apps));
    const spec = templateSpec(input);
    const hash = this.random.suffix(10);
    const meta = { namespace: input.namespace, createdAt, labels: input.labels };
    const counts = countsOf(placements);
    const deployment = this.store.create(
      R.deployments,
      makeDeployment(
        { ...meta, name: input.name, uid: this.random.uuid() },
        input.replicas,
        input,
        spec,
        counts,
      ),
    );
    const replicaSet = this.store.create(
      R.replicasets,
      makeReplicaSet(
        deployment,
        { ...meta, name: `${input.name}-${hash}`, uid: this.random.uuid(), hash },
        input,
        spec,
        counts,
      ),
    );
    const labels = Object.freeze({ ...input.labels, 'pod-template-hash': hash });
    const podSpec = podSpecOf(spec, 'ReplicaSet');
    const owners = Object.freeze([controllerRef(replicaSet)]);
    const shape = {
      prefix: `${replicaSet.metadata.name}-`,
      labels,
      owners,
      spec: podSpec,
      startedAt: createdAt,
    };
    return placements.map((p) => this.placePod(input, shape, p));
  }

  /** A DaemonSet with one pod per node it tolerates (or per given node). */
  daemonSet(input: WorkloadInput): Pod[] {
    const tolerations = input.tolerations ?? [];
    const nodes =
      input.nodes ?? this.nodes.filter((n) => n.agentReady || tolerates(tolerations, AGENT_NOT_READY));
    const placements = nodes.map((node, i): Placement => ({ node, variant: input.variant?.(i, node) ?? {} }));
    const createdAt = isoTime(this.ago(input.ageSeconds ?? AGE.apps));
    const spec = templateSpec(input);
    const daemonSet = this.store.create(
      R.daemonsets,
      makeDaemonSet(
        {
          namespace: input.namespace,
          name: input.name,
          uid: this.random.uuid(),
          createdAt,
          labels: input.labels,
        },
        input,
        spec,
        countsOf(placements),
      ),
    );
    const labels = daemonPodLabels(input.labels, this.random.suffix(10), 1);
    const podSpec = podSpecOf(spec, 'DaemonSet');
    const owners = Object.freeze([controllerRef(daemonSet)]);
    return placements.map((p) =>
      this.placePod(
        input,
        {
          prefix: `${input.name}-`,
          labels,
          owners,
          spec: podSpec,
          pinnedToNode: true,
          startedAt: createdAt,
        },
        p,
      ),
    );
  }

  private placePod(input: WorkloadInput, shape: PodShape, { node, variant }: Placement): Pod {
    const pod = spawnPod(this.cluster, {
      namespace: input.namespace,
      prefix: shape.prefix,
      labels: shape.labels,
      annotations: input.annotations,
      ownerReferences: shape.owners,
      spec: shape.spec,
      ...(shape.pinnedToNode ? { pinnedToNode: true } : {}),
      node: node.name,
      hostIP: node.ip,
      startedAt: variant.ageSeconds === undefined ? shape.startedAt : isoTime(this.ago(variant.ageSeconds)),
      health: variant.health ?? READY,
    });
    this.endpointIfManaged(pod, node, variant.unmanaged === true);
    return pod;
  }

  /** The agent writes a CEP for a pod it manages: not hostNetwork, agent ready, not planted as unmanaged. */
  private endpointIfManaged(pod: Pod, node: NodeRecord, unmanaged: boolean): void {
    if (!pod.spec.hostNetwork && node.agentReady && !unmanaged)
      addEndpoint(this.cluster, pod, pod.status?.startTime);
  }

  /**
   * The API's mirror of a static pod the kubelet runs from a manifest file: named after its node,
   * owned by the Node, annotated `kubernetes.io/config.mirror`.
   */
  mirrorPod(
    input: TemplateInput & { namespace: string; name: string; node: NodeRecord; unmanaged?: boolean },
  ): Pod {
    const hash = this.random.hex(32);
    const startedAt = this.ago(AGE.apps);
    const spec = templateSpec({ ...input, tolerations: [{ operator: 'Exists', effect: 'NoExecute' }] });
    const pod = this.store.create(
      R.pods,
      makePod({
        namespace: input.namespace,
        name: `${input.name}-${input.node.name}`,
        uid: this.random.uuid(),
        labels: input.labels,
        annotations: {
          'kubernetes.io/config.hash': hash,
          'kubernetes.io/config.mirror': hash,
          'kubernetes.io/config.seen': startedAt.toISOString().replace('Z', '000000Z'),
          'kubernetes.io/config.source': 'file',
        },
        ownerReferences: [
          { apiVersion: 'v1', kind: 'Node', name: input.node.name, uid: input.node.uid, controller: true },
        ],
        spec: { ...spec, priority: 0 },
        node: input.node.name,
        hostIP: input.node.ip,
        ...(spec.hostNetwork ? {} : { podIP: this.allocations.podIp(input.node.name) }),
        startedAt: isoTime(startedAt),
        containerIds: spec.containers.map(() => this.random.hex(64)),
        health: READY,
      }),
    );
    this.endpointIfManaged(pod, input.node, input.unmanaged === true);
    return pod;
  }

  /** A PodDisruptionBudget over pods already placed, with the status the disruption controller would write. */
  budget(input: {
    namespace: string;
    name: string;
    selector: LabelSelector;
    minAvailable?: number | string;
    maxUnavailable?: number | string;
  }): PodDisruptionBudget {
    const { namespace, name, selector, minAvailable, maxUnavailable } = input;
    const pdb: PodDisruptionBudget = {
      apiVersion: 'policy/v1',
      kind: 'PodDisruptionBudget',
      metadata: { name, namespace, generation: 1, creationTimestamp: isoTime(this.ago(AGE.apps)) },
      spec: {
        selector,
        ...(minAvailable !== undefined ? { minAvailable } : {}),
        ...(maxUnavailable !== undefined ? { maxUnavailable } : {}),
      },
    };
    const status = budgetStatus(pdb, budgetCounts(this.cluster, pdb), isoTime(this.ago(AGE.apps)));
    return this.store.create(R.poddisruptionbudgets, { ...pdb, status });
  }

  networkPolicy(namespace: string, name: string, spec: Record<string, unknown>): KubeObject {
    return this.store.create(R.networkpolicies, {
      apiVersion: 'networking.k8s.io/v1',
      kind: 'NetworkPolicy',
      metadata: { name, namespace, generation: 1, creationTimestamp: isoTime(this.ago(AGE.apps)) },
      spec,
    });
  }

  event(input: EventInput): KubeObject {
    return recordEvent(this.store, input);
  }
}
