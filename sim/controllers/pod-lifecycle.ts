import { R, type SimCluster } from '../cluster.ts';
import { podsOnNode } from '../exec/facts/pods-by-node.ts';
import type { KubeObject, Pod } from '../objects.ts';
import { addEndpoint, ingressPolicySelects } from '../scenarios/endpoints.ts';
import { recordEvent } from '../scenarios/make/events.ts';
import { isPodReady, withReady } from '../scenarios/make/pod.ts';
import { type ControllerContext, storeNow } from './context.ts';

/** The pod as stored now, if it is still the same pod (names come back; uids do not). */
function current(cluster: SimCluster, pod: Pod): Pod | undefined {
  const found = cluster.store.get<Pod>(R.pods, pod.metadata.namespace, pod.metadata.name);
  return found?.metadata.uid === pod.metadata.uid ? found : undefined;
}

/**
 * Incident 4 holds for new pods too: with no host mark rule on the node, the kubelet's probes
 * arrive as `world`, and an ingress policy selecting the pod drops them, so it never gets Ready.
 */
function probesDropped(cluster: SimCluster, pod: Pod): boolean {
  const agent = cluster.agents.get(pod.spec.nodeName as string);
  return agent?.iptables.hostMarkRule === false && probedUnderPolicy(cluster, pod);
}

/** A pod the kubelet probes and an ingress policy guards: its probes pass only as host traffic. */
function probedUnderPolicy(cluster: SimCluster, pod: Pod): boolean {
  const probed = pod.spec.containers.some(
    (c) => c.readinessProbe !== undefined || c.livenessProbe !== undefined,
  );
  return probed && !pod.spec.hostNetwork && ingressPolicySelects(cluster, pod);
}

/**
 * The kubelet's next probes once the node's agent marks host traffic again (a restart with
 * `install-iptables-rules` fixed): the probes a policy dropped as world now pass, and the pods
 * turn Ready after `readyDelayMs`.
 */
export function probesPassAgain(ctx: ControllerContext, node: string): void {
  const { cluster, scheduler } = ctx;
  if (cluster.agents.get(node)?.iptables.hostMarkRule !== true) return;
  const unready = podsOnNode(cluster, node).filter(
    (pod) => !isPodReady(pod) && probedUnderPolicy(cluster, pod),
  );
  scheduler.after(ctx.readyDelayMs, () => {
    for (const pod of unready) {
      if (!current(cluster, pod)) continue;
      const at = cluster.store.timestamp();
      cluster.store.update<Pod>(R.pods, pod.metadata.namespace, pod.metadata.name, (p) => withReady(p, at));
    }
  });
}

function kubeletEvent(
  ctx: ControllerContext,
  pod: Pod,
  container: string,
  reason: string,
  message: string,
): void {
  recordEvent(ctx.cluster.store, {
    about: pod,
    fieldPath: `spec.containers{${container}}`,
    type: 'Normal',
    reason,
    message,
    component: 'kubelet',
    host: pod.spec.nodeName as string,
    first: storeNow(ctx.cluster),
  });
}

/**
 * What the node does for a pod a controller just created there: the kubelet starts its
 * containers; the Cilium agent, if ready, writes the CEP after `cepDelayMs` (never for
 * hostNetwork pods); the readiness probe passes after `readyDelayMs` unless `staysUnready`.
 */
export function startPod(ctx: ControllerContext, pod: Pod, staysUnready = false): void {
  const { cluster, scheduler } = ctx;
  for (const container of pod.spec.containers) {
    kubeletEvent(
      ctx,
      pod,
      container.name,
      'Pulled',
      `Container image "${container.image}" already present on machine`,
    );
    kubeletEvent(ctx, pod, container.name, 'Created', `Created container: ${container.name}`);
    kubeletEvent(ctx, pod, container.name, 'Started', `Started container ${container.name}`);
  }
  if (!pod.spec.hostNetwork && cluster.agents.get(pod.spec.nodeName as string)?.ready) {
    scheduler.after(ctx.cepDelayMs, () => {
      const now = current(cluster, pod);
      const exists = cluster.store.get(R.ciliumendpoints, pod.metadata.namespace, pod.metadata.name);
      if (now && !exists) addEndpoint(cluster, now);
    });
  }
  if (!staysUnready && !probesDropped(cluster, pod)) {
    scheduler.after(ctx.readyDelayMs, () => {
      if (!current(cluster, pod)) return;
      const at = cluster.store.timestamp();
      cluster.store.update<Pod>(R.pods, pod.metadata.namespace, pod.metadata.name, (p) => withReady(p, at));
    });
  }
}

/**
 * What follows a pod's deletion: the kubelet stops its containers, and the garbage collector
 * deletes the CiliumEndpoint the pod owned.
 */
export function stopPod(ctx: ControllerContext, pod: Pod): void {
  const { store } = ctx.cluster;
  for (const container of pod.spec.containers) {
    kubeletEvent(ctx, pod, container.name, 'Killing', `Stopping container ${container.name}`);
  }
  const endpoint = store.get<KubeObject>(R.ciliumendpoints, pod.metadata.namespace, pod.metadata.name);
  if (endpoint?.metadata.ownerReferences?.some((ref) => ref.uid === pod.metadata.uid)) {
    store.delete(R.ciliumendpoints, pod.metadata.namespace, pod.metadata.name);
  }
}
