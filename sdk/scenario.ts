import type { ExtraScenarios, Scenario, ScenarioOptions } from '../sim/scenarios/index.ts';

/** A team's scenario: the built-in healthy cluster with its options changed. */
export interface ScenarioDefinition {
  /** Lowercase letters, digits and dashes; what `responder run --sim` and reports call it. */
  readonly name: string;
  /** One line: what the cluster looks like. */
  readonly description: string;
  /** The options this scenario sets, e.g. `{ kubeProxy: false }`; a caller's own options win. */
  readonly options: ScenarioOptions;
}

const NAME = /^[a-z0-9][a-z0-9-]*$/;

/**
 * A scenario for {@link startCluster} and `responder run --sim <file>`.
 *
 * @example
 * ```ts
 * import { defineScenario } from 'cilium-responder/testing';
 *
 * export default defineScenario({
 *   name: 'kube-proxy-removed',
 *   description: 'kube-proxy add-on deleted; Cilium replaces it',
 *   options: { kubeProxy: false, kubeProxyReplacement: 'true' },
 * });
 * ```
 */
export function defineScenario(definition: ScenarioDefinition): ScenarioDefinition {
  if (!NAME.test(definition.name))
    throw new Error(`scenario name "${definition.name}" must be lowercase letters, digits and dashes`);
  return { name: definition.name, description: definition.description, options: { ...definition.options } };
}

/** The simulator's form of team scenarios: presets over the healthy base, keyed by name. */
export function scenariosByName(definitions: readonly ScenarioDefinition[]): ExtraScenarios {
  const scenarios: Record<string, Scenario> = {};
  for (const definition of definitions)
    scenarios[definition.name] = {
      description: definition.description,
      presets: definition.options,
      composes: ['healthy'],
    };
  return scenarios;
}
