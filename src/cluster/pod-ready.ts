interface PodStatus {
  status?: { conditions?: { type: string; status: string }[] };
}

/**
 * Whether a pod's Ready condition is True: its containers run and their readiness probes pass.
 *
 * @example
 * ```ts
 * const pod = await ctx.kube.get(RESOURCES.pods, 'shop', 'web-1');
 * if (!isPodReady(pod)) return outcome('warn', 'shop/web-1 is not ready');
 * ```
 */
export function isPodReady(pod: object): boolean {
  const { status } = pod as PodStatus;
  return status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;
}
