import type { PermissionRule } from '../src/cluster/permissions.ts';

/** The id rule every runbook follows, built-in or a team's (the config's names use the same). */
export const RUNBOOK_ID = /^[a-z0-9][a-z0-9-]*$/;

/** A Kubernetes read a team's runbook declares; `responder rbac` and the stack's RBAC include it. */
export interface ReadPermission {
  /** API groups, `''` for the core group, e.g. `['apps']`. */
  readonly apiGroups: string[];
  /** Resources as RBAC names them, e.g. `['daemonsets']` (no subresources). */
  readonly resources: string[];
  /** get, list or watch: writes go through ctx.actuator. */
  readonly verbs: string[];
  /** Only these objects (for `get`). */
  readonly resourceNames?: string[];
  /**
   * Everywhere (the ClusterRole), or only in the Cilium agents' namespace (the Role).
   * @defaultValue `cluster`
   */
  readonly scope?: 'cluster' | 'cilium-namespace';
}

/** The rule RBAC gets for a declared read. */
export function ruleOf(permission: ReadPermission): PermissionRule {
  return {
    apiGroups: [...permission.apiGroups],
    resources: [...permission.resources],
    verbs: [...permission.verbs],
    ...(permission.resourceNames ? { resourceNames: [...permission.resourceNames] } : {}),
    scope: permission.scope ?? 'cluster',
  };
}

/** Verbs a runbook may declare: reads. Writes go through the actuator, whose verbs are the responder's own. */
const READ_VERBS = new Set(['get', 'list', 'watch']);

/** Why a declared rule is not a read-only rule, or undefined when it is. */
export function readOnlyRuleProblem(rule: ReadPermission): string | undefined {
  if (rule.resources.length === 0 || rule.verbs.length === 0)
    return 'needs at least one resource and one verb';
  const write = rule.verbs.find((verb) => !READ_VERBS.has(verb));
  if (write) return `verb "${write}" is not a read (get, list, watch); writes go through ctx.actuator`;
  if (rule.scope !== undefined && rule.scope !== 'cluster' && rule.scope !== 'cilium-namespace')
    return `scope "${rule.scope}" must be cluster or cilium-namespace`;
  if (rule.resources.some((resource) => resource.includes('/')))
    return "subresources (such as pods/exec) are the responder's own; declare resources only";
  return undefined;
}
