import { AGENT_NOT_READY_TAINT } from '../../cluster.ts';
import type { KubeObject } from '../../objects.ts';
import { REGION } from '../addresses.ts';

const KUBELET_VERSION = 'v1.33.5-eks-113cf36';
const INSTANCE_TYPE = 'm6i.2xlarge';

/** What makes one EKS worker node itself. */
export interface NodeFacts {
  name: string;
  ip: string;
  zone: string;
  /** `usw2-az1`... */
  zoneId: string;
  instanceId: string;
  nodegroup: string;
  /** Shared by the node group: AMI, launch template and cloud-provider labels. */
  groupLabels: Readonly<Record<string, string>>;
  createdAt: string;
  /** The time the kubelet last posted status. */
  heartbeatAt: string;
  machineId: string;
  systemUuid: string;
  bootId: string;
  /** Cilium agent ready: no `agent-not-ready` taint, and Cilium's NetworkUnavailable=False condition. */
  agentReady: boolean;
  /** Max pods the kubelet allows (110, or the ENI limit for the instance type). */
  maxPods: number;
}

export interface CiliumNodeFacts {
  routerIp: string;
  healthIp: string;
  /** Cluster-pool IPAM: the node's pod CIDR. */
  podCidr?: string;
  /** ENI IPAM: the ENI that holds the pod addresses, and those addresses. */
  eni?: {
    id: string;
    mac: string;
    subnetId: string;
    subnetCidr: string;
    vpcId: string;
    securityGroups: string[];
    pool: string[];
  };
}

const sharedConditions = new Map<string, readonly object[]>();

function conditions(facts: NodeFacts): readonly object[] {
  const key = `${facts.createdAt}|${facts.heartbeatAt}|${facts.agentReady}`;
  let found = sharedConditions.get(key);
  if (!found) {
    const times = { lastHeartbeatTime: facts.heartbeatAt, lastTransitionTime: facts.createdAt };
    found = Object.freeze([
      ...(facts.agentReady
        ? [
            {
              type: 'NetworkUnavailable',
              status: 'False',
              reason: 'CiliumIsUp',
              message: 'Cilium is running on this node',
              ...times,
            },
          ]
        : []),
      {
        type: 'MemoryPressure',
        status: 'False',
        reason: 'KubeletHasSufficientMemory',
        message: 'kubelet has sufficient memory available',
        ...times,
      },
      {
        type: 'DiskPressure',
        status: 'False',
        reason: 'KubeletHasNoDiskPressure',
        message: 'kubelet has no disk pressure',
        ...times,
      },
      {
        type: 'PIDPressure',
        status: 'False',
        reason: 'KubeletHasSufficientPID',
        message: 'kubelet has sufficient PID available',
        ...times,
      },
      {
        type: 'Ready',
        status: 'True',
        reason: 'KubeletReady',
        message: 'kubelet is posting ready status',
        ...times,
      },
    ]);
    sharedConditions.set(key, found);
  }
  return found;
}

/** Labels every node of a group and zone shares, as EKS managed node groups set them. */
export function nodeGroupLabels(args: {
  nodegroup: string;
  zone: string;
  zoneId: string;
  ami: string;
  launchTemplate: string;
  cloudProviderHash: string;
}): Readonly<Record<string, string>> {
  return Object.freeze({
    'beta.kubernetes.io/arch': 'amd64',
    'beta.kubernetes.io/instance-type': INSTANCE_TYPE,
    'beta.kubernetes.io/os': 'linux',
    'eks.amazonaws.com/capacityType': 'ON_DEMAND',
    'eks.amazonaws.com/nodegroup': args.nodegroup,
    'eks.amazonaws.com/nodegroup-image': args.ami,
    'eks.amazonaws.com/sourceLaunchTemplateId': args.launchTemplate,
    'eks.amazonaws.com/sourceLaunchTemplateVersion': '1',
    'failure-domain.beta.kubernetes.io/region': REGION,
    'failure-domain.beta.kubernetes.io/zone': args.zone,
    'k8s.io/cloud-provider-aws': args.cloudProviderHash,
    'kubernetes.io/arch': 'amd64',
    'kubernetes.io/os': 'linux',
    'node.kubernetes.io/instance-type': INSTANCE_TYPE,
    'topology.k8s.aws/zone-id': args.zoneId,
    'topology.kubernetes.io/region': REGION,
    'topology.kubernetes.io/zone': args.zone,
  });
}

const sharedCapacity = new Map<number, object>();

function capacity(maxPods: number): object {
  let found = sharedCapacity.get(maxPods);
  if (!found) {
    const common = { 'hugepages-1Gi': '0', 'hugepages-2Mi': '0', pods: String(maxPods) };
    found = Object.freeze({
      capacity: { cpu: '8', 'ephemeral-storage': '83873772Ki', memory: '32386524Ki', ...common },
      allocatable: { cpu: '7910m', 'ephemeral-storage': '76224326324', memory: '31369692Ki', ...common },
    });
    sharedCapacity.set(maxPods, found);
  }
  return found;
}

export function makeNode(facts: NodeFacts): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name: facts.name,
      creationTimestamp: facts.createdAt,
      labels: { ...facts.groupLabels, 'kubernetes.io/hostname': facts.name },
      annotations: {
        'alpha.kubernetes.io/provided-node-ip': facts.ip,
        'node.alpha.kubernetes.io/ttl': '0',
        'volumes.kubernetes.io/controller-managed-attach-detach': 'true',
      },
    },
    spec: {
      providerID: `aws:///${facts.zone}/${facts.instanceId}`,
      ...(facts.agentReady
        ? {}
        : { taints: [{ key: AGENT_NOT_READY_TAINT, value: 'true', effect: 'NoExecute' }] }),
    },
    status: {
      addresses: [
        { type: 'InternalIP', address: facts.ip },
        { type: 'InternalDNS', address: facts.name },
        { type: 'Hostname', address: facts.name },
      ],
      ...capacity(facts.maxPods),
      conditions: conditions(facts),
      daemonEndpoints: { kubeletEndpoint: { Port: 10250 } },
      nodeInfo: {
        architecture: 'amd64',
        bootID: facts.bootId,
        containerRuntimeVersion: 'containerd://1.7.27',
        kernelVersion: '6.1.147-172.266.amzn2023.x86_64',
        kubeletVersion: KUBELET_VERSION,
        machineID: facts.machineId,
        operatingSystem: 'linux',
        osImage: 'Amazon Linux 2023.8.20250915',
        systemUUID: facts.systemUuid,
      },
    },
  };
}

/** The CiliumNode the agent registers for its node: addresses, health endpoint and IPAM state. */
export function makeCiliumNode(node: KubeObject, facts: NodeFacts, cilium: CiliumNodeFacts): KubeObject {
  const { eni } = cilium;
  const ipam = eni
    ? {
        'pre-allocate': 8,
        pool: Object.fromEntries(eni.pool.map((ip) => [ip, { resource: eni.id }])),
      }
    : { podCIDRs: [cilium.podCidr] };
  return {
    apiVersion: 'cilium.io/v2',
    kind: 'CiliumNode',
    metadata: {
      name: facts.name,
      creationTimestamp: facts.createdAt,
      labels: node.metadata.labels,
      ownerReferences: [
        { apiVersion: 'v1', kind: 'Node', name: facts.name, uid: node.metadata.uid as string },
      ],
    },
    spec: {
      addresses: [
        { type: 'InternalIP', ip: facts.ip },
        { type: 'CiliumInternalIP', ip: cilium.routerIp },
      ],
      'alibaba-cloud': {},
      azure: {},
      encryption: {},
      eni: eni
        ? {
            'availability-zone': facts.zone,
            'first-interface-index': 1,
            'instance-type': INSTANCE_TYPE,
            'node-subnet-id': eni.subnetId,
            'security-groups': eni.securityGroups,
            'vpc-id': eni.vpcId,
          }
        : {},
      health: { ipv4: cilium.healthIp },
      ingress: {},
      'instance-id': facts.instanceId,
      ipam,
    },
    status: {
      'alibaba-cloud': {},
      azure: {},
      ...(eni
        ? {
            eni: {
              enis: {
                [eni.id]: {
                  addresses: eni.pool,
                  'availability-zone': facts.zone,
                  id: eni.id,
                  ip: eni.pool[0],
                  mac: eni.mac,
                  number: 1,
                  'security-groups': eni.securityGroups,
                  subnet: { cidr: eni.subnetCidr, id: eni.subnetId },
                  vpc: { id: eni.vpcId },
                },
              },
            },
          }
        : {}),
      ipam: { 'operator-status': {} },
    },
  };
}
