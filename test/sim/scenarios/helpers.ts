import { AGENT_LABEL, CILIUM_NAMESPACE, R, type SimCluster } from '../../../sim/cluster.ts';
import type { KubeObject, Pod } from '../../../sim/objects.ts';

/** A fixed clock, so builds are reproducible. */
export const NOW = new Date('2025-09-01T12:00:00Z');
export const clock = () => NOW;

export function pods(cluster: SimCluster, namespace?: string): Pod[] {
  return cluster.store.list(R.pods, namespace ? { namespace } : {}).items as Pod[];
}

export function endpoint(cluster: SimCluster, pod: Pod): KubeObject | undefined {
  return cluster.store.get(R.ciliumendpoints, pod.metadata.namespace, pod.metadata.name);
}

/** Pods the unmanaged-pods runbook looks at: Running, not hostNetwork, no CEP. */
export function unmanaged(cluster: SimCluster): Pod[] {
  return pods(cluster).filter(
    (pod) => pod.status?.phase === 'Running' && !pod.spec.hostNetwork && !endpoint(cluster, pod),
  );
}

export function isReady(pod: Pod): boolean {
  return pod.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') === true;
}

export function ciliumConfig(cluster: SimCluster): Record<string, string> {
  return cluster.store.get<KubeObject>(R.configmaps, CILIUM_NAMESPACE, 'cilium-config')?.data as Record<
    string,
    string
  >;
}

export function agentPods(cluster: SimCluster): Pod[] {
  return pods(cluster, CILIUM_NAMESPACE).filter(
    (pod) => pod.metadata.labels?.['k8s-app'] === AGENT_LABEL['k8s-app'],
  );
}

/** One agent pod's name, read without listing the whole store (for an exec into an agent). */
export function firstAgentPod(cluster: SimCluster): string {
  return cluster.store.list(R.pods, {
    namespace: CILIUM_NAMESPACE,
    filter: (pod) => pod.metadata.labels?.['k8s-app'] === AGENT_LABEL['k8s-app'],
    limit: 1,
  }).items[0]?.metadata.name as string;
}

export function names(items: { namespace?: string; name: string }[]): string[] {
  return items.map((item) => `${item.namespace}/${item.name}`).sort();
}

export function podNames(items: Pod[]): string[] {
  return names(items.map((pod) => ({ namespace: pod.metadata.namespace, name: pod.metadata.name })));
}
