import type { KubeError, KubeErrorKind } from '../src/cluster/types.ts';

/**
 * Whether `error` is the facade's typed error (of `kind`, when given). Use it rather than
 * `instanceof`: a team's bundle and the responder's may each hold their own copy of the class.
 *
 * @example
 * ```ts
 * try {
 *   await ctx.kube.get(RESOURCES.daemonsets, 'kube-system', 'kube-proxy');
 * } catch (error) {
 *   if (isKubeError(error, 'not-found')) return outcome('pass', 'kube-proxy is not installed');
 *   throw error;
 * }
 * ```
 */
export function isKubeError(error: unknown, kind?: KubeErrorKind): error is KubeError {
  if (!(error instanceof Error) || error.name !== 'KubeError') return false;
  return kind === undefined || (error as KubeError).kind === kind;
}
