import type { Evidence, Finding, Severity } from '../src/engine/types.ts';

/** A finding's code: upper case words joined by underscores, e.g. `KUBE_PROXY_BESIDE_REPLACEMENT`. */
const CODE = /^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$/;

/** What {@link finding} takes. */
export interface FindingInput {
  /** Stable, upper snake case; with `target` it makes the fingerprint (one chat thread per problem). */
  readonly code: string;
  /** What the problem is at, e.g. `kube-system/kube-proxy` or a node name. */
  readonly target: string;
  /** How much it matters. @defaultValue `warning` */
  readonly severity?: Severity;
  /** One line a person can act on. */
  readonly message: string;
  /** How to fix it by hand, when the runbook will not. */
  readonly fix?: string;
}

/**
 * A finding, checked: the code must be upper snake case and the target non-empty, because the
 * fingerprint is built from them, never from free text.
 *
 * @example
 * ```ts
 * finding({
 *   code: 'KUBE_PROXY_BESIDE_REPLACEMENT',
 *   target: 'kube-system/kube-proxy',
 *   message: 'kube-proxy runs on 4 nodes while Cilium replaces it',
 *   fix: 'aws eks delete-addon --cluster-name <cluster> --addon-name kube-proxy',
 * });
 * ```
 */
export function finding(input: FindingInput): Finding {
  if (!CODE.test(input.code)) throw new Error(`finding code "${input.code}" must be UPPER_SNAKE_CASE`);
  if (!input.target) throw new Error(`finding ${input.code}: target is empty`);
  return {
    code: input.code,
    target: input.target,
    severity: input.severity ?? 'warning',
    message: input.message,
    ...(input.fix ? { fix: input.fix } : {}),
  };
}

/**
 * What a step saw, for the report.
 *
 * @example
 * ```ts
 * evidence('cilium-config', 'kube-proxy-replacement: true');
 * ```
 */
export function evidence(source: string, text: string): Evidence {
  return { source, text };
}
