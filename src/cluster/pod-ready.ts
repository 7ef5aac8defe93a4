interface PodStatus {
  status?: { conditions?: { type: string; status: string }[] };
}

/** Whether a pod's Ready condition is True: its containers run and their readiness probes pass. */
export function isPodReady(pod: object): boolean {
  const { status } = pod as PodStatus;
  return status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;
}
