import type { AgentState } from '../../../agent-state.ts';
import type { SimCluster } from '../../../cluster.ts';
import { KUBERNETES_VERSION } from '../../../server/discovery.ts';
import { ciliumConfig, routingFacts } from '../../facts/cilium-config.ts';
import { ciliumNodeFullName, ciliumNodeNames } from '../../facts/cilium-nodes.ts';
import { rfc3339, simNow } from '../../facts/clock.ts';
import { nodeAddresses } from '../../facts/node-addresses.ts';
import { stableNumber } from '../../format/hash.ts';
import { versionMessage } from './build-info.ts';
import { nodeCpus } from './node-cpus.ts';

interface Status {
  msg?: string;
  state: string;
}

/** The parts of the StatusResponse the human-readable form reads; the rest is passed through. */
export interface StatusResponse {
  cilium: Status;
  cluster: { ciliumHealth: Status; nodes: unknown[]; self: string };
  controllers: { name: string; status: { 'consecutive-failure-count': number } }[];
  encryption: { mode: string };
  'host-firewall': { mode: string };
  hubble: Status;
  'identity-range': { 'max-identity': number; 'min-identity': number };
  ipam: { status: string };
  'kube-proxy-replacement': {
    deviceList: { ip: string[]; name: string }[];
    directRoutingDevice: string;
    mode: string;
    [key: string]: unknown;
  };
  kubernetes: { 'k8s-api-versions': string[]; msg: string; state: string };
  kvstore: Status;
  masquerading: { mode: string; 'snat-exclusion-cidr-v4': string; [key: string]: unknown };
  nodeMonitor: { cpus: number; npages: number; pagesize: number; lost: number; unknown: number };
  proxy: { 'envoy-deployment-mode': string; ip: string; 'port-range': string; 'total-redirects': number };
  routing: {
    'inter-host-routing-mode': string;
    'intra-host-routing-mode': string;
    'tunnel-protocol': string;
  };
  [key: string]: unknown;
}

/** EKS nodes on AL2023 (Nitro) name their primary interface ens5. */
const PRIMARY_DEVICE = 'ens5';

const K8S_API_VERSIONS = [
  'EndpointSliceOrEndpoint',
  'cilium/v2::CiliumClusterwideNetworkPolicy',
  'cilium/v2::CiliumEndpoint',
  'cilium/v2::CiliumNetworkPolicy',
  'cilium/v2::CiliumNode',
  'cilium/v2alpha1::CiliumCIDRGroup',
  'core/v1::Namespace',
  'core/v1::Pods',
  'core/v1::Service',
  'networking.k8s.io/v1::NetworkPolicy',
];

const CONTROLLERS = [
  'cilium-health-ep',
  'dns-garbage-collector-job',
  'endpoint-gc',
  'ipcache-inject-labels',
  'k8s-heartbeat',
  'link-cache',
  'sync-host-ips',
  'sync-lb-maps-with-k8s-services',
  'template-dir-watcher',
];

/**
 * The agent's `GET /healthz` StatusResponse (api/v1/models/status_response.go), fields in the Go
 * struct's order and with its omitempty rules: e.g. `features.socketLB` is `{}` when socket LB is off.
 */
export function statusResponse(cluster: SimCluster, agent: AgentState): StatusResponse {
  const config = ciliumConfig(cluster);
  const routing = routingFacts(cluster);
  const self = nodeAddresses(cluster, agent.node);
  const now = rfc3339(simNow(cluster));
  const ready = agent.ready;
  const kprOn = !['False', 'Disabled', 'false', 'disabled'].includes(agent.kubeProxyReplacementMode);
  return {
    cilium: ready
      ? { msg: versionMessage(agent.ciliumVersion), state: 'Ok' }
      : { msg: 'Waiting for initial sync of k8s resources', state: 'Warning' },
    'client-id': stableNumber(`${agent.node}/client`) % 1_000_000_000,
    cluster: {
      ciliumHealth: { state: 'Ok' },
      nodes: ciliumNodeNames(cluster).map((name) => clusterNode(cluster, name, name === agent.node)),
      self: ciliumNodeFullName(cluster, agent.node),
    },
    controllers: CONTROLLERS.map((name) => ({
      configuration: { 'error-retry': true, interval: '1m0s' },
      name,
      status: {
        'consecutive-failure-count': 0,
        'failure-count': 0,
        'last-failure-timestamp': '0001-01-01T00:00:00.000Z',
        'last-success-timestamp': now,
        'success-count': (stableNumber(`${agent.node}/${name}`) % 500) + 1,
      },
      uuid: uuidFrom(`${agent.node}/${name}`),
    })),
    encryption: { mode: 'Disabled' },
    'host-firewall': { mode: 'Disabled' },
    hubble: { state: 'Disabled' },
    'identity-range': { 'max-identity': 65535, 'min-identity': 256 },
    ipam: { status: `IPv4: ${(stableNumber(agent.node) % 20) + 3}/29 allocated` },
    'kube-proxy-replacement': {
      deviceList: [{ ip: [self.internalIP], name: PRIMARY_DEVICE }],
      devices: [PRIMARY_DEVICE],
      directRoutingDevice: PRIMARY_DEVICE,
      features: {
        annotations: [],
        ...(config['bpf-lb-sock-hostns-only'] === 'true' ? { bpfSocketLBHostnsOnly: true } : {}),
        externalIPs: enabled(kprOn),
        gracefulTermination: enabled(true),
        hostPort: enabled(kprOn),
        nodePort: kprOn
          ? {
              acceleration: 'None',
              algorithm: 'Random',
              enabled: true,
              mode: 'SNAT',
              portMax: 32767,
              portMin: 30000,
            }
          : {},
        sessionAffinity: enabled(kprOn),
        socketLB: enabled(agent.socketLB),
        socketLBTracing: enabled(agent.socketLB),
      },
      mode: agent.kubeProxyReplacementMode,
    },
    kubernetes: {
      'k8s-api-versions': K8S_API_VERSIONS,
      msg: `${KUBERNETES_VERSION.major}.${KUBERNETES_VERSION.minor} (${KUBERNETES_VERSION.gitVersion}) [${KUBERNETES_VERSION.platform}]`,
      state: 'Ok',
    },
    kvstore: { msg: 'Disabled', state: 'Ok' },
    masquerading: {
      enabled: true,
      enabledProtocols: { ipv4: true },
      mode: 'BPF',
      'snat-exclusion-cidr-v4': config['ipv4-native-routing-cidr'] || '10.0.0.0/16',
    },
    nodeMonitor: { cpus: nodeCpus(cluster, agent.node), lost: 0, npages: 64, pagesize: 4096, unknown: 0 },
    proxy: {
      'envoy-deployment-mode': 'embedded',
      ip: self.ciliumInternalIP,
      'port-range': '10000-20000',
      'total-redirects': 0,
    },
    routing: {
      'inter-host-routing-mode': routing.mode,
      'intra-host-routing-mode': 'Legacy',
      'tunnel-protocol': routing.tunnelProtocol,
    },
  };
}

/** Go drops `enabled: false` (omitempty), leaving an empty object. */
function enabled(on: boolean): { enabled?: true } {
  return on ? { enabled: true } : {};
}

function clusterNode(cluster: SimCluster, name: string, local: boolean) {
  const addresses = nodeAddresses(cluster, name);
  return {
    'health-endpoint-address': { ipv4: { enabled: true, ip: addresses.healthIP } },
    name: ciliumNodeFullName(cluster, name),
    'primary-address': { ipv4: { enabled: true, ip: addresses.internalIP } },
    source: local ? 'local' : 'custom-resource',
  };
}

function uuidFrom(seed: string): string {
  const hex = [0, 1, 2, 3].map((i) => stableNumber(`${seed}#${i}`).toString(16).padStart(8, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
