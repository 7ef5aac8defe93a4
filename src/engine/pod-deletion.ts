import { KubeError, type KubeReader, RESOURCES } from '../cluster/types.ts';
import { podFacts } from './pod-facts.ts';

/** What the cluster says of a pod deletion (an eviction, an agent restart) whose answer was lost. */
export interface DeletionCheck {
  /** Whether it happened; undefined when the cluster could not be asked. */
  happened?: boolean;
  /** What was seen, in a report's words. */
  seen: string;
}

/**
 * Whether the pod with this uid was deleted: gone, replaced by a pod of the same name, or
 * terminating means the deletion happened; the same pod still there, not terminating, means it
 * did not. For a verifying step after an eviction or restart whose outcome is `unconfirmed`.
 *
 * @example
 * ```ts
 * const lost = ctx.state.done.filter((action) => action.outcome === 'unconfirmed');
 * const checks = await Promise.all(lost.map((action) => checkDeletion(ctx.kube, podOf(action))));
 * return outcome('pass', `${checksSummary(checks, 'eviction')}replacements managed`);
 * ```
 */
export async function checkDeletion(
  kube: Pick<KubeReader, 'get'>,
  pod: { namespace: string; name: string; uid: string },
): Promise<DeletionCheck> {
  try {
    const now = podFacts(await kube.get(RESOURCES.pods, pod.namespace, pod.name));
    if (now.uid !== pod.uid)
      return { happened: true, seen: 'a new pod has its name (the old uid is gone): it happened' };
    if (now.terminating) return { happened: true, seen: 'the pod is terminating: it happened' };
    return { happened: false, seen: 'the same pod (same uid) is still running: it did not happen' };
  } catch (error) {
    if (error instanceof KubeError && error.kind === 'not-found')
      return { happened: true, seen: 'the pod is gone: it happened' };
    const reason = error instanceof Error ? error.message : String(error);
    return { seen: `the pod could not be read (${reason}): whether it happened is unknown` };
  }
}

/**
 * `2 unconfirmed evictions: 1 happened, 1 did not; ` for a step's summary, empty without any.
 *
 * @example
 * ```ts
 * checksSummary([{ happened: true, seen: 'the pod is gone' }], 'eviction');
 * // '1 unconfirmed eviction: 1 happened, 0 did not; '
 * ```
 */
export function checksSummary(checks: readonly DeletionCheck[], noun: string): string {
  if (checks.length === 0) return '';
  const happened = checks.filter((check) => check.happened === true).length;
  const not = checks.filter((check) => check.happened === false).length;
  const unknown = checks.length - happened - not;
  const plural = checks.length === 1 ? '' : 's';
  return `${checks.length} unconfirmed ${noun}${plural}: ${happened} happened, ${not} did not${unknown > 0 ? `, ${unknown} unknown` : ''}; `;
}
