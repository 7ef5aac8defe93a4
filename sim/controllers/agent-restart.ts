import { AGENT_CONTAINER, CILIUM_NAMESPACE, R } from '../cluster.ts';
import type { KubeObject, Pod, PodSpec } from '../objects.ts';
import { allocationsOf } from '../scenarios/allocations.ts';
import { applyAgentConfig, containerCgroupPath, containerIdOf } from '../scenarios/make/agent.ts';
import { hasMountCgroup } from '../scenarios/make/cilium.ts';
import { type ControllerContext, storeNow } from './context.ts';

/**
 * A new Cilium agent pod on a node: the node keeps its agent state (readiness, cgroup namespace,
 * health, drops), but the agent runs in a new container, and on start it reads cilium-config and
 * its pod template again, so a fixed `install-iptables-rules` or an added `mount-cgroup` init
 * container takes effect now, as a restart does on a real cluster.
 */
export function restartAgent(ctx: ControllerContext, pod: Pod, template: PodSpec): void {
  const { cluster } = ctx;
  const state = cluster.agentForPod(pod);
  if (!state) return;
  state.cgroup.containerPath = containerCgroupPath(
    pod.metadata.uid as string,
    containerIdOf(pod, AGENT_CONTAINER),
  );
  state.cgroup.containerInode = 2000 + allocationsOf(cluster).random.int(98_000);
  const config = cluster.store.get<KubeObject>(R.configmaps, CILIUM_NAMESPACE, 'cilium-config');
  const data = (config?.data ?? {}) as Record<string, string>;
  applyAgentConfig(state, data, hasMountCgroup(template), storeNow(cluster));
}
