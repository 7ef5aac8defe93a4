/** Small helpers that keep report text short and uniform. */

/** `45s`, `12m`, `3h`, `2d`: the largest whole unit, as kubectl shows ages. */
export function formatAge(seconds: number): string {
  if (seconds < 120) return `${seconds}s`;
  if (seconds < 7_200) return `${Math.floor(seconds / 60)}m`;
  if (seconds < 172_800) return `${Math.floor(seconds / 3_600)}h`;
  return `${Math.floor(seconds / 86_400)}d`;
}

/** `a, b, c and 4 more`: names a few, counts the rest, so one line stays one line. */
export function listSome(items: readonly string[], shown = 5): string {
  if (items.length <= shown) return items.join(', ');
  return `${items.slice(0, shown).join(', ')} and ${items.length - shown} more`;
}

/** `1 pod`, `3 pods`. */
export function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

/** The by-hand restart: the pod's controller recreates it. */
export function deletePodCommand(pod: { namespace: string; name: string }): string {
  return `kubectl -n ${pod.namespace} delete pod ${pod.name}`;
}
