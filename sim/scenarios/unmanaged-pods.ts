import { R } from '../cluster.ts';
import type { Pod } from '../objects.ts';
import type { NodeRecord } from './builder.ts';
import { appTemplate } from './make/system.ts';
import { type PodRef, podRef } from './plan.ts';
import type { Scenario } from './scenario.ts';

/** Seconds since the young pod started: inside the 30 s grace period. */
const YOUNG_POD_AGE_SECONDS = 10;

/**
 * Incident 1: pods that started before the Cilium agent on their node was ready, and never got a
 * CiliumEndpoint. Two nodes' agents came up late (`late`, `later`); the last node's agent is still
 * not ready. Around the targets sit every pod the runbook must leave alone.
 */
export const unmanagedPods: Scenario = {
  description:
    'Pods Cilium does not manage (no CiliumEndpoint): Deployment and broad-toleration DaemonSet pods, one behind a PodDisruptionBudget, one too young, a mirror pod, pods on a node whose agent is not ready, beside aws-node and other hostNetwork pods.',
  presets: { agentNotReadyNodes: 1 },
  apply(builder) {
    const ready = builder.readyNodes();
    if (ready.length < 3)
      throw new Error('unmanaged-pods needs at least 3 nodes with a ready agent (option nodes)');
    const late = ready[1] as NodeRecord;
    const later = ready[2] as NodeRecord;
    const notReady = builder.nodes.filter((node) => !node.agentReady);
    const unmanagedOn = (target: NodeRecord) => (_: number, node: NodeRecord) => ({
      unmanaged: node === target,
    });
    const on = (pods: Pod[], node: NodeRecord) =>
      pods.filter((pod) => pod.spec.nodeName === node.name).map(podRef);
    const onNotReady = (pods: Pod[]) =>
      pods.filter((pod) => notReady.some((n) => n.name === pod.spec.nodeName)).map(podRef);

    builder.namespace('logging');
    builder.namespace('observability');
    builder.namespace('monitoring');
    builder.namespace('payments');

    const checkout = builder.deployment({
      namespace: 'shop',
      name: 'checkout',
      replicas: 3,
      nodes: [late, later, ready[0] as NodeRecord],
      ...appTemplate({ app: 'checkout' }),
      variant: unmanagedOn(late),
    });
    // `{operator: Exists}` tolerates every taint, the agent-not-ready one included.
    const logShipper = builder.daemonSet({
      namespace: 'logging',
      name: 'log-shipper',
      ...appTemplate({ 'app.kubernetes.io/name': 'fluent-bit' }, 'cr.fluentbit.io/fluent/fluent-bit:3.2.4'),
      tolerations: [{ operator: 'Exists' }],
      variant: unmanagedOn(late),
    });
    const otelAgent = builder.daemonSet({
      namespace: 'observability',
      name: 'otel-agent',
      ...appTemplate(
        { 'app.kubernetes.io/name': 'otel-agent' },
        'otel/opentelemetry-collector-contrib:0.119.0',
      ),
      tolerations: [{ effect: 'NoExecute', operator: 'Exists' }],
      variant: unmanagedOn(later),
    });
    builder.daemonSet({
      namespace: 'monitoring',
      name: 'node-exporter',
      ...appTemplate(
        { 'app.kubernetes.io/name': 'node-exporter' },
        'quay.io/prometheus/node-exporter:v1.9.0',
      ),
      hostNetwork: true,
      tolerations: [{ operator: 'Exists' }],
    });
    const ledger = builder.deployment({
      namespace: 'payments',
      name: 'ledger',
      replicas: 2,
      nodes: [late, later],
      ...appTemplate({ app: 'ledger' }),
      variant: unmanagedOn(later),
    });
    const budget = builder.budget({
      namespace: 'payments',
      name: 'ledger',
      selector: { matchLabels: { app: 'ledger' } },
      minAvailable: 2,
    });
    const recommendations = builder.deployment({
      namespace: 'shop',
      name: 'recommendations',
      replicas: 2,
      nodes: [late, later],
      ...appTemplate({ app: 'recommendations' }),
      variant: (_, node) => (node === late ? { unmanaged: true, ageSeconds: YOUNG_POD_AGE_SECONDS } : {}),
    });
    const mirror = builder.mirrorPod({
      namespace: 'default',
      name: 'static-web',
      node: late,
      ...appTemplate({ role: 'static-web' }),
      unmanaged: true,
    });

    const hostNetwork = builder.store.list(R.pods, {
      filter: (pod) => (pod as Pod).spec.hostNetwork === true,
    }).items as Pod[];
    const refs = (pods: Pod[]): PodRef[] => pods.map(podRef);
    builder.plan.unmanagedPods = {
      evictable: [...on(checkout, late), ...on(logShipper, late), ...on(otelAgent, later)],
      blockedByBudget: on(ledger, later),
      onNotReadyAgent: [...onNotReady(logShipper), ...onNotReady(otelAgent)],
      young: on(recommendations, late),
      mirror: [podRef(mirror)],
      hostNetwork: refs(hostNetwork),
      awsNode: refs(hostNetwork.filter((pod) => pod.metadata.labels?.['k8s-app'] === 'aws-node')),
      notReadyAgentNodes: notReady.map((node) => node.name),
      budget: { namespace: 'payments', name: budget.metadata.name },
    };
  },
};
