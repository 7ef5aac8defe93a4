import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadProblem } from '../runbooks/load-error.ts';
import { type ScenarioDefinition, scenariosByName } from '../sdk/scenario.ts';
import type { ExtraScenarios } from '../sim/scenarios/index.ts';

/** A `--sim` entry naming a file (a team's scenario) rather than a built-in scenario. */
export function isScenarioFile(entry: string): boolean {
  return entry.includes('/') || /\.[cm]?[jt]s$/.test(entry);
}

function definitionProblem(value: unknown): string | undefined {
  const definition = value as Partial<ScenarioDefinition> | undefined;
  if (typeof definition?.name !== 'string' || typeof definition.description !== 'string')
    return 'its default export is not a scenario; export default defineScenario({...}) from cilium-responder/testing';
  if (typeof definition.options !== 'object' || definition.options === null)
    return 'options must be an object';
  return undefined;
}

/**
 * The `--sim` entries with files replaced by their scenarios' names, and those scenarios for the
 * simulator. A file that is not a scenario is an error naming it.
 */
export async function scenarioFiles(
  entries: readonly string[],
): Promise<{ names: string[]; extra: ExtraScenarios }> {
  const definitions: ScenarioDefinition[] = [];
  const names: string[] = [];
  for (const entry of entries) {
    if (!isScenarioFile(entry)) {
      names.push(entry);
      continue;
    }
    let exports: Record<string, unknown>;
    try {
      // tsx loads only for a scenario file, as for a team's runbooks (runbooks/team.ts).
      const { tsImport } = await import('tsx/esm/api');
      exports = await tsImport(pathToFileURL(resolve(entry)).href, import.meta.url);
    } catch (error) {
      throw new Error(`scenario ${entry}: cannot load it: ${loadProblem(error)}`);
    }
    const problem = definitionProblem(exports.default);
    if (problem) throw new Error(`scenario ${entry}: ${problem}`);
    const definition = exports.default as ScenarioDefinition;
    definitions.push(definition);
    names.push(definition.name);
  }
  return { names, extra: scenariosByName(definitions) };
}
