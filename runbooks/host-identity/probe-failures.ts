import { isPodReady, type KubeObject, type KubeReader, RESOURCES } from '../../sdk/index.ts';
import { policyView, restrictingPolicies } from './network-policy.ts';

/** A pod failing its probes while a NetworkPolicy restricts who may reach it. */
export interface ProbedPod {
  namespace: string;
  name: string;
  node: string;
  ip: string;
  hostIP?: string;
  /** The restricting policies that select it. */
  policies: string[];
  /** A probe failure the kubelet recorded for it. */
  lastFailure: string;
}

interface ProbeEvent {
  namespace: string;
  pod: string;
  uid?: string;
  message: string;
}

interface PodView {
  name: string;
  uid: string;
  node?: string;
  ip?: string;
  hostIP?: string;
  hostNetwork: boolean;
  ready: boolean;
  labels: Record<string, string>;
}

const PROBE_FAILED = /^(Readiness|Liveness) probe failed/;

function probeEvent(object: KubeObject): ProbeEvent {
  const about = (object.involvedObject ?? {}) as { kind?: string; name?: string; uid?: string };
  return {
    namespace: object.metadata.namespace ?? '',
    pod: about.kind === 'Pod' ? (about.name ?? '') : '',
    ...(about.uid ? { uid: about.uid } : {}),
    message: typeof object.message === 'string' ? object.message : '',
  };
}

function podView(object: KubeObject): PodView {
  const spec = (object.spec ?? {}) as { nodeName?: string; hostNetwork?: boolean };
  const status = (object.status ?? {}) as { podIP?: string; hostIP?: string };
  return {
    name: object.metadata.name,
    uid: object.metadata.uid,
    node: spec.nodeName,
    ip: status.podIP,
    hostIP: status.hostIP,
    hostNetwork: spec.hostNetwork === true,
    ready: isPodReady(object),
    labels: object.metadata.labels ?? {},
  };
}

/** Probe failures recorded against pods: namespace → pod name → one of its events. */
async function probeFailures(kube: KubeReader): Promise<Map<string, Map<string, ProbeEvent>>> {
  const events = await kube.list(RESOURCES.events, {
    fieldSelector: 'reason=Unhealthy',
    project: probeEvent,
  });
  const byNamespace = new Map<string, Map<string, ProbeEvent>>();
  for (const event of events) {
    if (!event.pod || !PROBE_FAILED.test(event.message)) continue;
    const pods = byNamespace.get(event.namespace) ?? new Map<string, ProbeEvent>();
    pods.set(event.pod, event);
    byNamespace.set(event.namespace, pods);
  }
  return byNamespace;
}

/**
 * Pods that are not Ready, have "Readiness/Liveness probe failed" events (for this very pod, by
 * uid), and are selected by a NetworkPolicy that restricts ingress: the pods a missing host mark
 * hurts. hostNetwork pods are left out: their probes never cross Cilium's policy.
 */
export async function podsFailingProbesUnderPolicy(kube: KubeReader): Promise<ProbedPod[]> {
  const found: ProbedPod[] = [];
  for (const [namespace, failures] of await probeFailures(kube)) {
    const [pods, policies] = await Promise.all([
      // A crash-looping pod stays in phase Running.
      kube.list(RESOURCES.pods, { namespace, fieldSelector: 'status.phase=Running', project: podView }),
      kube.list(RESOURCES.networkpolicies, { namespace, project: policyView }),
    ]);
    for (const pod of pods) {
      const failure = failures.get(pod.name);
      if (!failure || (failure.uid && failure.uid !== pod.uid)) continue;
      if (pod.ready || pod.hostNetwork || !pod.node || !pod.ip) continue;
      const selecting = restrictingPolicies(policies, pod.labels);
      if (selecting.length === 0) continue;
      found.push({
        namespace,
        name: pod.name,
        node: pod.node,
        ip: pod.ip,
        ...(pod.hostIP ? { hostIP: pod.hostIP } : {}),
        policies: selecting,
        lastFailure: failure.message,
      });
    }
  }
  return found.sort((a, b) => `${a.namespace}/${a.name}`.localeCompare(`${b.namespace}/${b.name}`));
}
