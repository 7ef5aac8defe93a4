import type { PermissionRule } from '../src/cluster/permissions.ts';

/** The id rule every runbook follows, built-in or a team's (the config's names use the same). */
export const RUNBOOK_ID = /^[a-z0-9][a-z0-9-]*$/;

/** Verbs a runbook may declare: reads. Writes go through the actuator, whose verbs are the responder's own. */
const READ_VERBS = new Set(['get', 'list', 'watch']);

/** Why a declared rule is not a read-only rule, or undefined when it is. */
export function readOnlyRuleProblem(rule: PermissionRule): string | undefined {
  if (rule.resources.length === 0 || rule.verbs.length === 0)
    return 'needs at least one resource and one verb';
  const write = rule.verbs.find((verb) => !READ_VERBS.has(verb));
  if (write) return `verb "${write}" is not a read (get, list, watch); writes go through ctx.actuator`;
  if (rule.resources.some((resource) => resource.includes('/')))
    return "subresources (such as pods/exec) are the responder's own; declare resources only";
  return undefined;
}
