import { createHash } from 'node:crypto';
import { AGENT_CONTAINER, AGENT_LABEL, AGENT_NOT_READY_TAINT } from '../../cluster.ts';
import type { Container } from '../../objects.ts';
import { addressPlan } from '../addresses.ts';
import { type ResolvedOptions, versionAtLeast } from '../options.ts';
import type { TemplateInput } from './workloads.ts';

export const CGROUP_ROOT = '/run/cilium/cgroupv2';
export const MOUNT_CGROUP = 'mount-cgroup';

function digest(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

export function ciliumImage(options: ResolvedOptions, repository = 'quay.io/cilium/cilium'): string {
  return `${repository}:v${options.ciliumVersion}@sha256:${digest(`${repository}:${options.ciliumVersion}`)}`;
}

/** The agent CLI the chart's init containers call (`cilium-dbg` since 1.15). */
function agentCli(options: ResolvedOptions): string {
  return options.agentCli === 'cilium-only' ? 'cilium' : 'cilium-dbg';
}

/** The tunnel keys: `routing-mode` + `tunnel-protocol` since 1.14, a single `tunnel` key before. */
function routingKeys(options: ResolvedOptions): Record<string, string> {
  const tunnelling = options.routingMode === 'tunnel';
  if (!versionAtLeast(options.ciliumVersion, '1.14')) {
    return {
      tunnel: tunnelling ? options.tunnelProtocol : 'disabled',
      ...(tunnelling ? { 'tunnel-port': String(options.tunnelPort) } : {}),
    };
  }
  return {
    'routing-mode': options.routingMode,
    'tunnel-protocol': options.tunnelProtocol,
    ...(tunnelling ? { 'tunnel-port': String(options.tunnelPort) } : {}),
  };
}

function ipamKeys(options: ResolvedOptions): Record<string, string> {
  return options.ipam === 'eni'
    ? {
        ipam: 'eni',
        'auto-create-cilium-node-resource': 'true',
        'ec2-api-endpoint': '',
        'eni-tags': '{"io.cilium/cilium-managed":"true"}',
        'egress-masquerade-interfaces': 'eth+',
        'enable-endpoint-routes': 'true',
      }
    : {
        ipam: 'cluster-pool',
        'cluster-pool-ipv4-cidr': addressPlan(options.nodes).podCidr,
        'cluster-pool-ipv4-mask-size': String(addressPlan(options.nodes).podBlockBits),
      };
}

/** cilium-config as the Helm chart renders it for EKS. */
export function ciliumConfigData(options: ResolvedOptions): Record<string, string> {
  return Object.fromEntries(
    Object.entries({
      'agent-not-ready-taint-key': AGENT_NOT_READY_TAINT,
      'arping-refresh-period': '30s',
      'auto-direct-node-routes': 'false',
      'bpf-lb-sock': String(options.socketLB),
      'bpf-lb-sock-hostns-only': String(options.socketLBHostnsOnly),
      'bpf-map-dynamic-size-ratio': '0.0025',
      'cgroup-root': CGROUP_ROOT,
      'cluster-id': '0',
      'cluster-name': options.clusterName,
      'cni-exclusive': 'true',
      debug: 'false',
      'enable-health-check-nodeport': 'true',
      'enable-health-checking': 'true',
      'enable-hubble': 'true',
      'enable-ipv4': 'true',
      'enable-ipv4-masquerade': 'true',
      'enable-ipv6': 'false',
      'enable-l7-proxy': 'true',
      'enable-policy': 'default',
      'hubble-listen-address': ':4244',
      'identity-allocation-mode': 'crd',
      'install-iptables-rules': String(options.installIptablesRules),
      'kube-proxy-replacement': options.kubeProxyReplacement,
      'monitor-aggregation': 'medium',
      'operator-api-serve-addr': '127.0.0.1:9234',
      'pod-restart-selector': options.podRestartSelector,
      'remove-cilium-node-taints': 'true',
      'set-cilium-is-up-condition': 'true',
      'set-cilium-node-taints': 'true',
      'unmanaged-pod-watcher-interval': options.unmanagedPodWatcherInterval,
      'write-cni-conf-when-ready': '/host/etc/cni/net.d/05-cilium.conflist',
      ...routingKeys(options),
      ...ipamKeys(options),
    }).sort(([a], [b]) => (a < b ? -1 : 1)),
  );
}

/** Whether a pod spec carries the chart's `mount-cgroup` init container (the incident 2 fix). */
export function hasMountCgroup(spec: { initContainers?: readonly Container[] }): boolean {
  return spec.initContainers?.some((c) => c.name === MOUNT_CGROUP) === true;
}

function initContainers(options: ResolvedOptions): Container[] {
  const image = ciliumImage(options);
  const cli = agentCli(options);
  return [
    { name: 'config', image, command: [cli, 'build-config'] },
    ...(options.cgroupAutoMount
      ? [
          {
            name: MOUNT_CGROUP,
            image,
            command: [
              'sh',
              '-ec',
              'cp /usr/bin/cilium-mount /hostbin/cilium-mount;\nnsenter --cgroup=/hostproc/1/ns/cgroup --mount=/hostproc/1/ns/mnt "$BIN_PATH/cilium-mount" $CGROUP_ROOT;\nrm /hostbin/cilium-mount\n',
            ],
            env: [
              { name: 'CGROUP_ROOT', value: CGROUP_ROOT },
              { name: 'BIN_PATH', value: '/opt/cni/bin' },
            ],
            securityContext: { privileged: true },
          },
        ]
      : []),
    {
      name: 'apply-sysctl-overwrites',
      image,
      command: [
        'sh',
        '-ec',
        'cp /usr/bin/cilium-sysctlfix /hostbin/cilium-sysctlfix;\nnsenter --mount=/hostproc/1/ns/mnt "$BIN_PATH/cilium-sysctlfix";\nrm /hostbin/cilium-sysctlfix\n',
      ],
    },
    {
      name: 'mount-bpf-fs',
      image,
      command: ['/bin/bash', '-c', '--'],
      args: ['mount | grep "/sys/fs/bpf type bpf" || mount -t bpf bpf /sys/fs/bpf'],
    },
    { name: 'clean-cilium-state', image, command: ['/init-container.sh'] },
    { name: 'install-cni-binaries', image, command: ['/install-plugin.sh'] },
  ];
}

/** The agent DaemonSet's pod template: `cilium-agent` first, hostNetwork, tolerates everything. */
export function agentTemplate(options: ResolvedOptions): TemplateInput {
  return {
    labels: {
      ...AGENT_LABEL,
      'app.kubernetes.io/name': 'cilium-agent',
      'app.kubernetes.io/part-of': 'cilium',
    },
    annotations: { 'kubectl.kubernetes.io/default-container': AGENT_CONTAINER },
    containers: [
      {
        name: AGENT_CONTAINER,
        image: ciliumImage(options),
        command: ['cilium-agent'],
        args: ['--config-dir=/tmp/cilium/config-map'],
        env: [
          {
            name: 'K8S_NODE_NAME',
            valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'spec.nodeName' } },
          },
          {
            name: 'CILIUM_K8S_NAMESPACE',
            valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } },
          },
        ],
        livenessProbe: {
          httpGet: { host: '127.0.0.1', path: '/healthz', port: 9879, scheme: 'HTTP' },
          periodSeconds: 30,
        },
        readinessProbe: {
          httpGet: { host: '127.0.0.1', path: '/healthz', port: 9879, scheme: 'HTTP' },
          periodSeconds: 30,
        },
        resources: { requests: { cpu: '100m', memory: '512Mi' } },
        securityContext: { privileged: true },
      },
    ],
    initContainers: initContainers(options),
    hostNetwork: true,
    tolerations: [{ operator: 'Exists' }],
    serviceAccountName: 'cilium',
    priorityClassName: 'system-node-critical',
  };
}

export function operatorTemplate(options: ResolvedOptions): TemplateInput {
  const repository =
    options.ipam === 'eni' ? 'quay.io/cilium/operator-aws' : 'quay.io/cilium/operator-generic';
  return {
    labels: {
      'io.cilium/app': 'operator',
      name: 'cilium-operator',
      'app.kubernetes.io/name': 'cilium-operator',
      'app.kubernetes.io/part-of': 'cilium',
    },
    containers: [
      {
        name: 'cilium-operator',
        image: ciliumImage(options, repository),
        command: [options.ipam === 'eni' ? 'cilium-operator-aws' : 'cilium-operator-generic'],
        args: ['--config-dir=/tmp/cilium/config-map', '--debug=$(CILIUM_DEBUG)'],
      },
    ],
    hostNetwork: true,
    tolerations: [{ operator: 'Exists' }],
    serviceAccountName: 'cilium-operator',
    priorityClassName: 'system-cluster-critical',
  };
}
