import { dirname, isAbsolute, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { RUNBOOK_ID, readOnlyRuleProblem } from '../sdk/rules.ts';
import type { PermissionRule } from '../src/cluster/permissions.ts';
import type { ParseOptions } from '../src/config/load.ts';
import type { ResponderConfig } from '../src/config/schema.ts';
import type { AnyRunbook, RunbookInfo } from '../src/engine/types.ts';
import { RUNBOOK_CATALOG } from './catalog.ts';
import { RUNBOOKS } from './index.ts';
import { loadProblem } from './load-error.ts';

/** A team's runbook and where it came from (a file, or a package name), for messages and bundling. */
export interface TeamRunbook {
  /** The runbook its module exports. */
  runbook: AnyRunbook;
  /** The config's entry: a path relative to the config file, or a package name. */
  spec: string;
  /** What to import it by: an absolute path, or the package name. */
  module: string;
}

/** The runbooks one config can run: the built-in ones, then the team's, in the config's order. */
export interface RunbookSet {
  /** The built-in runbooks, then the team's. */
  runbooks: readonly AnyRunbook[];
  /** The same, without their code: what admission and listing read. */
  catalog: readonly RunbookInfo[];
  /** Their ids, in order: what routes and schedules may name. */
  ids: readonly string[];
  /** The team's runbooks alone, with where each came from. */
  team: readonly TeamRunbook[];
  /** The Kubernetes reads the team's runbooks declare, for the RBAC. */
  permissions: readonly PermissionRule[];
}

/** A config entry that cannot be a runbook: names the entry and what is wrong. */
export class RunbookModuleError extends Error {
  constructor(spec: string, problem: string) {
    super(`runbook module ${spec}: ${problem}`);
    this.name = 'RunbookModuleError';
  }
}

/** A runbook as listing and routing see it. */
export const runbookInfo = (runbook: AnyRunbook): RunbookInfo => ({
  id: runbook.id,
  title: runbook.title,
  writes: runbook.steps.some((step) => step.writes),
  // Checked to be an object schema when the runbook loads: admission reads its keys.
  params: runbook.params as unknown as RunbookInfo['params'],
});

export function runbookSet(team: readonly TeamRunbook[] = []): RunbookSet {
  const runbooks = [...RUNBOOKS, ...team.map((t) => t.runbook)];
  return {
    runbooks,
    catalog: [...RUNBOOK_CATALOG, ...team.map((t) => runbookInfo(t.runbook))],
    ids: runbooks.map((runbook) => runbook.id),
    team,
    permissions: team.flatMap((t) => t.runbook.permissions ?? []),
  };
}

/** The built-in runbooks alone: what a config without `runbooks` runs. */
export const BUILT_IN_RUNBOOKS = runbookSet();

/** Why an exported value is not a runbook (as defineRunbook makes), or undefined when it is. */
function shapeProblem(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null)
    return 'its default export is not a runbook; export default defineRunbook({...}) from cilium-responder/sdk';
  const runbook = value as Partial<AnyRunbook>;
  for (const field of ['id', 'title', 'summary', 'doc'] as const)
    if (typeof runbook[field] !== 'string' || runbook[field] === '')
      return `${field} must be a non-empty string`;
  if (!RUNBOOK_ID.test(runbook.id as string))
    return `id "${runbook.id}" must be lowercase letters, digits and dashes`;
  if (
    typeof runbook.params?.safeParse !== 'function' ||
    typeof (runbook.params as { shape?: unknown }).shape !== 'object'
  )
    return 'params must be a zod object schema (z.object({...}))';
  if (typeof runbook.newState !== 'function') return 'newState must be a function';
  if (!Array.isArray(runbook.answers)) return 'answers must be a list of alert names';
  if (!Array.isArray(runbook.steps) || runbook.steps.length === 0) return 'steps must be a non-empty list';
  for (const [index, step] of runbook.steps.entries()) {
    if (typeof step?.id !== 'string' || typeof step.title !== 'string')
      return `steps[${index}] needs an id and a title`;
    if (typeof step.run !== 'function') return `steps[${index}] (${step.id}): run must be a function`;
    if (typeof step.writes !== 'boolean') return `steps[${index}] (${step.id}): writes must be true or false`;
  }
  for (const [index, rule] of (runbook.permissions ?? []).entries()) {
    const problem = readOnlyRuleProblem(rule);
    if (problem) return `permissions[${index}]: ${problem}`;
  }
  return undefined;
}

/** What `spec` imports: a path relative to the config file's folder, or a package name. */
function moduleOf(spec: string, baseDir: string): string {
  return spec.startsWith('.') || isAbsolute(spec) ? resolve(baseDir, spec) : spec;
}

async function importRunbook(spec: string, baseDir: string): Promise<TeamRunbook> {
  const module = moduleOf(spec, baseDir);
  let exports: Record<string, unknown>;
  try {
    // TypeScript directly (tsx), resolved from the config's folder so package names find its node_modules.
    // tsx loads only here: it costs a command without team runbooks a tenth of its start.
    const { tsImport } = await import('tsx/esm/api');
    exports = await tsImport(module, pathToFileURL(`${baseDir}/`).href);
  } catch (error) {
    throw new RunbookModuleError(spec, `cannot load it: ${loadProblem(error)}`);
  }
  const value = exports.default ?? exports.runbook;
  const problem = shapeProblem(value);
  if (problem) throw new RunbookModuleError(spec, problem);
  return { runbook: value as AnyRunbook, spec, module };
}

/**
 * Loads a config's `runbooks` entries and checks them against each other and the built-in ones:
 * the same id rules, no id twice, no `all`.
 */
export async function loadRunbookSet(specs: readonly string[], baseDir: string): Promise<RunbookSet> {
  const team: TeamRunbook[] = [];
  for (const spec of specs) {
    const loaded = await importRunbook(spec, baseDir);
    const id = loaded.runbook.id;
    if (id === 'all') throw new RunbookModuleError(spec, 'id "all" is reserved for running every runbook');
    if (RUNBOOKS.some((builtIn) => builtIn.id === id))
      throw new RunbookModuleError(spec, `id "${id}" is a built-in runbook's; choose another`);
    const earlier = team.find((t) => t.runbook.id === id);
    if (earlier) throw new RunbookModuleError(spec, `id "${id}" is also ${earlier.spec}'s`);
    team.push(loaded);
  }
  return runbookSet(team);
}

/**
 * A config file and the runbooks it can run, both checked: its team runbooks load first, then the
 * routes and schedules are validated against every id. What the CLI and the construct start from.
 */
export async function loadConfigWithRunbooks(
  file: string,
  checks?: ParseOptions['checks'],
): Promise<{ config: ResponderConfig; runbooks: RunbookSet }> {
  // The YAML parser loads with the first config file: a run without one never compiles it.
  const { loadConfig } = await import('../src/config/load.ts');
  const { runbooks: specs } = await loadConfig(file);
  const runbooks = await loadRunbookSet(specs, dirname(resolve(file)));
  return {
    config: await loadConfig(file, { runbooks: runbooks.ids, ...(checks ? { checks } : {}) }),
    runbooks,
  };
}
