import type { TemplateInput } from './workloads.ts';

/** The EKS add-ons' ECR registry for us-west-2. */
const EKS_REGISTRY = '602401143452.dkr.ecr.us-west-2.amazonaws.com';

/**
 * The AWS VPC CNI DaemonSet, hostNetwork. The EKS add-on labels its pods `k8s-app=aws-node` and
 * `app.kubernetes.io/name=aws-node`; a custom Helm install may set only the first.
 */
export function awsNodeTemplate(nameLabel: boolean): TemplateInput {
  return {
    labels: {
      ...(nameLabel
        ? { 'app.kubernetes.io/instance': 'aws-vpc-cni', 'app.kubernetes.io/name': 'aws-node' }
        : {}),
      'k8s-app': 'aws-node',
    },
    containers: [
      {
        name: 'aws-node',
        image: `${EKS_REGISTRY}/amazon-k8s-cni:v1.20.0-eksbuild.1`,
        ports: [{ containerPort: 61678, name: 'metrics', protocol: 'TCP' }],
        resources: { requests: { cpu: '25m' } },
      },
      {
        name: 'aws-eks-nodeagent',
        image: `${EKS_REGISTRY}/amazon/aws-network-policy-agent:v1.2.2-eksbuild.1`,
        resources: { requests: { cpu: '25m' } },
      },
    ],
    initContainers: [
      { name: 'aws-vpc-cni-init', image: `${EKS_REGISTRY}/amazon-k8s-cni-init:v1.20.0-eksbuild.1` },
    ],
    hostNetwork: true,
    tolerations: [{ operator: 'Exists' }],
    serviceAccountName: 'aws-node',
    priorityClassName: 'system-node-critical',
  };
}

export function kubeProxyTemplate(): TemplateInput {
  return {
    labels: { 'k8s-app': 'kube-proxy' },
    containers: [
      {
        name: 'kube-proxy',
        image: `${EKS_REGISTRY}/eks/kube-proxy:v1.33.3-minimal-eksbuild.2`,
        command: [
          'kube-proxy',
          '--v=2',
          '--config=/var/lib/kube-proxy-config/config',
          '--hostname-override=$(NODE_NAME)',
        ],
        resources: { requests: { cpu: '100m' } },
        securityContext: { privileged: true },
      },
    ],
    hostNetwork: true,
    tolerations: [{ operator: 'Exists' }],
    serviceAccountName: 'kube-proxy',
    priorityClassName: 'system-node-critical',
  };
}

export function coreDnsTemplate(): TemplateInput {
  return {
    labels: { 'eks.amazonaws.com/component': 'coredns', 'k8s-app': 'kube-dns' },
    containers: [
      {
        name: 'coredns',
        image: `${EKS_REGISTRY}/eks/coredns:v1.12.2-eksbuild.4`,
        args: ['-conf', '/etc/coredns/Corefile'],
        ports: [
          { containerPort: 53, name: 'dns', protocol: 'UDP' },
          { containerPort: 53, name: 'dns-tcp', protocol: 'TCP' },
          { containerPort: 9153, name: 'metrics', protocol: 'TCP' },
        ],
        readinessProbe: { httpGet: { path: '/ready', port: 8181, scheme: 'HTTP' }, periodSeconds: 10 },
        resources: { limits: { memory: '170Mi' }, requests: { cpu: '100m', memory: '70Mi' } },
      },
    ],
    tolerations: [
      { key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' },
      { key: 'CriticalAddonsOnly', operator: 'Exists' },
    ],
    serviceAccountName: 'coredns',
    priorityClassName: 'system-cluster-critical',
  };
}

/** A plain web app container: what most of a cluster's pods look like. */
export function appTemplate(
  labels: Record<string, string>,
  image = 'public.ecr.aws/nginx/nginx:1.27',
): TemplateInput {
  return {
    labels,
    containers: [
      {
        name: 'app',
        image,
        ports: [{ containerPort: 8080, name: 'http', protocol: 'TCP' }],
        resources: { requests: { cpu: '50m', memory: '64Mi' } },
      },
    ],
  };
}
