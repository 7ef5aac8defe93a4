// z as a type, as sdk/index.ts exports it; `object` by name so bundles keep only what they use.
import { object, type z } from 'zod';
import type { Outcome, Runbook, Step, StepContext } from '../src/engine/types.ts';
import { type ReadPermission, RUNBOOK_ID, readOnlyRuleProblem, ruleOf } from './rules.ts';

/** What a team writes to define a step; {@link defineStep} fills in the defaults. */
export interface StepDefinition<P = Record<string, unknown>, S = Record<string, never>> {
  /** Stable id, unique in its runbook, e.g. `kube-proxy-present`. */
  readonly id: string;
  /** One line for the report, e.g. `kube-proxy still running`. */
  readonly title: string;
  /**
   * Whether the step writes (through `ctx.actuator`). Write steps run only in `auto`; in `approve`
   * the run stops before the first one.
   * @defaultValue false
   */
  readonly writes?: boolean;
  /**
   * When the step applies: the reason it does not, or undefined when it does. The report shows a
   * step that does not apply as skipped, with that reason.
   * @defaultValue the step always applies
   */
  readonly when?: (ctx: StepContext<P, S>) => Promise<string | undefined>;
  /** Looks at the cluster through `ctx.kube`, `ctx.cilium` and `ctx.aws`; acts only through `ctx.actuator`. */
  readonly run: (ctx: StepContext<P, S>) => Promise<Outcome>;
}

/** What a team writes to define a runbook; {@link defineRunbook} fills in the defaults. */
export interface RunbookDefinition<Schema extends z.ZodType = z.ZodObject, S = Record<string, never>> {
  /** Lowercase letters, digits and dashes, e.g. `kube-proxy-coexistence`; unique among all runbooks. */
  readonly id: string;
  /** A few words for lists and Slack, e.g. `kube-proxy beside Cilium's replacement`. */
  readonly title: string;
  /** One sentence: what it checks and what it may do. */
  readonly summary: string;
  /**
   * The runbook's doc, relative to the project root.
   * @defaultValue `runbooks/<id>/README.md`
   */
  readonly doc?: string;
  /**
   * The params' schema; the config's per-cluster params and `--set` are validated by it before
   * anything runs, and steps see its output type as `ctx.params`.
   * @defaultValue an empty object schema (no params)
   */
  readonly params?: Schema;
  /**
   * Alert names this runbook answers, for routing.
   * @defaultValue none
   */
  readonly answers?: readonly string[];
  /**
   * The state one run's steps share, fresh for every run.
   * @defaultValue an empty object
   */
  readonly state?: () => S;
  /**
   * The Kubernetes reads the steps make beyond the built-in runbooks' (get, list or watch only:
   * writes go through `ctx.actuator`). `responder rbac` and the stack's RBAC include them.
   * @defaultValue none
   */
  readonly permissions?: readonly ReadPermission[];
  /** Run in order; their ids unique. Inline, each step's `ctx` is typed from `params` and `state`. */
  readonly steps: readonly Step<z.output<Schema>, S>[];
}

/**
 * A step, its defaults filled in. Inline in {@link defineRunbook}'s `steps`, `ctx` is typed from
 * the runbook's params; in a file of its own, name the params type.
 *
 * @example
 * ```ts
 * import { defineStep, finding, outcome } from 'cilium-responder/sdk';
 *
 * export const configRead = defineStep({
 *   id: 'config',
 *   title: 'cilium-config readable',
 *   run: async (ctx) => {
 *     const config = await ctx.cilium.config();
 *     return outcome('pass', `${Object.keys(config).length} keys`);
 *   },
 * });
 * ```
 */
export function defineStep<P = Record<string, unknown>, S = Record<string, never>>(
  definition: StepDefinition<P, S>,
): Step<P, S> {
  return {
    id: definition.id,
    title: definition.title,
    writes: definition.writes ?? false,
    ...(definition.when ? { when: definition.when } : {}),
    run: definition.run,
  };
}

/** Why a definition cannot be a runbook, or undefined when it can. */
function definitionProblem(definition: RunbookDefinition<z.ZodType, unknown>): string | undefined {
  if (!RUNBOOK_ID.test(definition.id))
    return `id "${definition.id}" must be lowercase letters, digits and dashes`;
  if (definition.steps.length === 0) return 'steps is empty: a runbook needs at least one step';
  const ids = definition.steps.map((step) => step.id);
  const twice = ids.find((id, index) => ids.indexOf(id) !== index);
  if (twice) return `step id "${twice}" is used twice`;
  for (const [index, rule] of (definition.permissions ?? []).entries()) {
    const problem = readOnlyRuleProblem(rule);
    if (problem) return `permissions[${index}]: ${problem}`;
  }
  return undefined;
}

/**
 * A runbook, its defaults filled in and checked: the id's form, unique step ids, read-only
 * permissions. Throws an Error naming the runbook and what is wrong.
 *
 * @example
 * ```ts
 * import { z } from 'zod';
 * import { defineRunbook, defineStep, outcome } from 'cilium-responder/sdk';
 *
 * export default defineRunbook({
 *   id: 'agents-ready',
 *   title: 'Cilium agents ready',
 *   summary: 'Reports Cilium agents that are not ready.',
 *   params: z.object({ minimum: z.number().int().default(1) }),
 *   steps: [
 *     defineStep({
 *       id: 'count',
 *       title: 'ready agents',
 *       run: async (ctx) => {
 *         const ready = (await ctx.cilium.agents()).filter((agent) => agent.ready).length;
 *         return outcome(ready >= ctx.params.minimum ? 'pass' : 'fail', `${ready} ready`);
 *       },
 *     }),
 *   ],
 * });
 * ```
 */
export function defineRunbook<Schema extends z.ZodType = z.ZodObject, S = Record<string, never>>(
  definition: RunbookDefinition<Schema, S>,
): Runbook<z.output<Schema>, S> {
  const problem = definitionProblem(definition as RunbookDefinition<z.ZodType, unknown>);
  if (problem) throw new Error(`runbook ${definition.id || '(no id)'}: ${problem}`);
  const newState = definition.state ?? (() => ({}) as S);
  return {
    id: definition.id,
    title: definition.title,
    summary: definition.summary,
    doc: definition.doc ?? `runbooks/${definition.id}/README.md`,
    params: (definition.params ?? object({})) as z.ZodType<z.output<Schema>>,
    answers: [...(definition.answers ?? [])],
    newState,
    steps: [...definition.steps],
    ...(definition.permissions ? { permissions: definition.permissions.map(ruleOf) } : {}),
  };
}
