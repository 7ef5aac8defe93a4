import type { CommandContext } from '../../types.ts';

/** The container's hostname: the node's for hostNetwork pods (the agent is one), else the pod's. */
export function containerHostname(ctx: CommandContext): string {
  const { pod } = ctx;
  if ((pod.spec.hostNetwork || ctx.agent) && pod.spec.nodeName) return pod.spec.nodeName;
  const hostname = typeof pod.spec.hostname === 'string' ? pod.spec.hostname : pod.metadata.name;
  return hostname.slice(0, 63);
}
