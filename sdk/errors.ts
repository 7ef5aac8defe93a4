import type { z } from 'zod';
import type { KubeError, KubeErrorKind } from '../src/cluster/types.ts';
import { firstIssue, issueLine } from '../src/validation/issues.ts';

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

/**
 * An error without its per-object detail: `forbidden: create pods/exec` for a Kubernetes API
 * error (whose detail names the pod), else the error's message. Group failures by it, so 5,000
 * agents failing alike read as one cause.
 *
 * @example
 * ```ts
 * const causes = new Set(failed.map(({ error }) => errorCause(error)));
 * return outcome('error', `could not check ${failed.length} agents: ${[...causes].join('; ')}`);
 * ```
 */
export function errorCause(error: Error): string {
  return isKubeError(error) ? `${error.kind}: ${error.verb} ${error.resource}` : error.message;
}

/**
 * A zod failure in one line, `field: problem`, worded as the responder words every bad input
 * (`nodes[0].name: expected string, got number`): for output a step parses with a schema.
 *
 * @example
 * ```ts
 * const parsed = statusSchema.safeParse(JSON.parse(result.stdout));
 * if (!parsed.success) throw new Error(`cilium status printed unexpected JSON: ${zodProblem(parsed.error)}`);
 * ```
 */
export function zodProblem(error: z.ZodError): string {
  return issueLine(firstIssue(error));
}
