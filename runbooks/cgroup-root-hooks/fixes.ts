import type { AgentPod } from '../../sdk/index.ts';

/** Where Cilium pins its socket-LB cgroup links on the host (pkg/socketlb: one pin per program). */
export const CGROUP_LINK_PINS = '/sys/fs/bpf/cilium/socketlb/links/cgroup';

/**
 * On start the agent updates each pinned link in place, wherever it is attached, and attaches
 * afresh only when there is no pin (or the link is dead): a restart alone never moves hooks.
 * Removing the pins is what makes the next agent attach them to its cgroup root.
 */
export function removePinsFix(agent: AgentPod): string {
  return (
    `Remove ${agent.node}'s pinned socket-LB links, from a debug pod that sees the host's /sys/fs/bpf ` +
    `(kubectl debug node/${agent.node} mounts the host's / at /host): ` +
    `kubectl debug node/${agent.node} -it --profile=sysadmin --image=busybox -- sh -c 'rm /host${CGROUP_LINK_PINS}/*'. ` +
    `Then restart its agent, which attaches them afresh on its cgroup root: kubectl -n ${agent.namespace} delete pod ${agent.name}. ` +
    'Then run this runbook again to confirm: responder run cgroup-root-hooks.'
  );
}

/** The mount first (the chart's mount-cgroup init container), then the pins: the agents keep their hooks otherwise. */
export function mountThenPinsFix(agent: AgentPod, root: string): string {
  return (
    `helm upgrade cilium cilium/cilium -n ${agent.namespace} --reuse-values --set cgroup.autoMount.enabled=true ` +
    `--set cgroup.hostRoot=${root} (the mount-cgroup init container then mounts the host's cgroup2 there). ` +
    `The restarted agents keep their hooks where they were, so then: ${removePinsFix(agent)}`
  );
}
