import { R } from '../cluster.ts';
import type { KubeObject, Pod } from '../objects.ts';
import type { ClusterBuilder } from './builder.ts';
import { isoTime } from './make/meta.ts';
import { type PodRef, podRef } from './plan.ts';
import type { Scenario } from './scenario.ts';

const NAMESPACE = 'billing';
const CLIENT_NAMESPACE = 'gateway';
const POLICY = 'allow-from-gateway';
const PORT = 8080;
/** The pods started this long ago and have been failing since. */
const POD_AGE_SECONDS = 45 * 60;
const RESTARTS = 7;
const WORLD = 2;

function probeTimeout(pod: Pod, path: string): string {
  return `Get "http://${pod.status?.podIP}:${PORT}${path}": context deadline exceeded (Client.Timeout exceeded while awaiting headers)`;
}

/** The kubelet's record of a pod failing its probes for the last 45 minutes. */
function recordProbeFailures(builder: ClusterBuilder, pod: Pod): void {
  const first = builder.ago(POD_AGE_SECONDS - 30);
  const last = builder.ago(20);
  const common = {
    about: pod,
    fieldPath: 'spec.containers{api}',
    component: 'kubelet',
    host: pod.spec.nodeName,
    first,
    last,
  };
  builder.event({
    ...common,
    type: 'Warning',
    reason: 'Unhealthy',
    message: `Readiness probe failed: ${probeTimeout(pod, '/ready')}`,
    count: 268,
  });
  builder.event({
    ...common,
    type: 'Warning',
    reason: 'Unhealthy',
    message: `Liveness probe failed: ${probeTimeout(pod, '/healthz')}`,
    count: 3 * RESTARTS,
  });
  builder.event({
    ...common,
    type: 'Normal',
    reason: 'Killing',
    message: 'Container api failed liveness probe, will be restarted',
    count: RESTARTS,
  });
  builder.event({
    ...common,
    type: 'Warning',
    reason: 'BackOff',
    message: `Back-off restarting failed container api in pod ${pod.metadata.name}_${NAMESPACE}(${pod.metadata.uid})`,
    count: 41,
  });
}

/**
 * Incident 4: `install-iptables-rules` is false, so no agent marks host traffic; the kubelet's
 * probes reach pods as `world`, and the one namespace whose NetworkPolicy restricts ingress (one
 * port, from one namespace) drops them. One failing pod per node with a ready agent, so every such
 * agent holds drops.
 */
export const hostIdentityWorld: Scenario = {
  description:
    'Host traffic identified as world: install-iptables-rules=false, no host mark rule in CILIUM_OUTPUT, probes to policy-selected pods dropped (Policy denied, world->pod), those pods not Ready and restarting.',
  presets: { installIptablesRules: false },
  apply(builder) {
    builder.namespace(CLIENT_NAMESPACE);
    builder.namespace(NAMESPACE);
    builder.deployment({
      namespace: CLIENT_NAMESPACE,
      name: 'edge-proxy',
      replicas: 2,
      labels: { app: 'edge-proxy' },
      containers: [
        { name: 'envoy', image: 'envoyproxy/envoy:v1.33.0', resources: { requests: { cpu: '100m' } } },
      ],
    });
    // Before the pods, so their CEPs show ingress enforcement, as the agent would.
    builder.networkPolicy(NAMESPACE, POLICY, {
      podSelector: { matchLabels: { app: 'invoice-api' } },
      policyTypes: ['Ingress'],
      ingress: [
        {
          from: [{ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': CLIENT_NAMESPACE } } }],
          ports: [{ protocol: 'TCP', port: PORT }],
        },
      ],
    });
    const nodes = builder.readyNodes();
    const probe = (path: string) => ({
      httpGet: { path, port: PORT, scheme: 'HTTP' },
      periodSeconds: 10,
      timeoutSeconds: 1,
      failureThreshold: 3,
    });
    const pods = builder.deployment({
      namespace: NAMESPACE,
      name: 'invoice-api',
      replicas: nodes.length,
      nodes,
      labels: { app: 'invoice-api' },
      containers: [
        {
          name: 'api',
          image: 'ghcr.io/example/invoice-api:2.8.1',
          ports: [{ containerPort: PORT, name: 'http', protocol: 'TCP' }],
          readinessProbe: probe('/ready'),
          livenessProbe: probe('/healthz'),
          resources: { requests: { cpu: '100m', memory: '128Mi' } },
        },
      ],
      ageSeconds: POD_AGE_SECONDS,
      variant: () => ({
        health: {
          kind: 'crash-looping',
          restarts: RESTARTS,
          lastStartedAt: isoTime(builder.ago(150)),
          lastFinishedAt: isoTime(builder.ago(95)),
        },
      }),
    });
    let identity = 0;
    const failingPods: PodRef[] = [];
    for (const pod of pods) {
      recordProbeFailures(builder, pod);
      const endpoint = builder.store.get<KubeObject>(R.ciliumendpoints, NAMESPACE, pod.metadata.name);
      const status = endpoint?.status as { id: number; identity: { id: number } };
      identity = status.identity.id;
      const agent = builder.agent(builder.nodeNamed(pod.spec.nodeName as string));
      for (let i = 0; i < 3; i++) {
        agent.drops.push({
          reason: 'Policy denied',
          sourceIdentity: WORLD,
          destinationIdentity: status.identity.id,
          source: `${pod.status?.hostIP}:${32768 + builder.random.int(28_000)}`,
          destination: `${pod.status?.podIP}:${PORT}`,
          summary: 'tcp SYN',
          endpointId: status.id,
        });
      }
      failingPods.push(podRef(pod));
    }
    builder.plan.hostIdentity = {
      namespace: NAMESPACE,
      networkPolicy: POLICY,
      port: PORT,
      failingPods,
      identity,
      nodesWithDrops: nodes.map((node) => node.name),
    };
  },
};
