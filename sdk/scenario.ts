import type { ExtraScenarios, KubeProxyReplacement, Scenario } from '../sim/scenarios/index.ts';

export type { KubeProxyReplacement } from '../sim/scenarios/index.ts';

/**
 * What a team's scenario or test sets of the simulated cluster; the rest stays as in the healthy
 * built-in scenario. The simulator's other settings serve the built-in scenarios and stay private.
 */
export interface ClusterSettings {
  /** Seed of every random choice (names, uids, addresses). @defaultValue 1 */
  readonly seed?: number;
  /** Worker nodes, one Cilium agent each. @defaultValue 4 */
  readonly nodes?: number;
  /** Cilium's version, e.g. `1.15.9`; picks the defaults that changed between versions. @defaultValue `1.17.6` */
  readonly ciliumVersion?: string;
  /** The kube-proxy DaemonSet (the EKS add-on) in kube-system. @defaultValue true, as EKS installs it */
  readonly kubeProxy?: boolean;
  /** cilium-config `kube-proxy-replacement`. @defaultValue `true` (from 1.14; `strict` before) */
  readonly kubeProxyReplacement?: KubeProxyReplacement;
  /** Socket-LB (cilium-config `bpf-lb-sock`). @defaultValue true */
  readonly socketLB?: boolean;
  /** cilium-config `routing-mode`. @defaultValue `tunnel` */
  readonly routingMode?: 'tunnel' | 'native';
  /** cilium-config `tunnel-protocol`, when tunnelling. @defaultValue `vxlan` */
  readonly tunnelProtocol?: 'vxlan' | 'geneve';
}

/** A team's scenario: the built-in healthy cluster with its options changed. */
export interface ScenarioDefinition {
  /** Lowercase letters, digits and dashes; what `responder run --sim` and reports call it. */
  readonly name: string;
  /** One line: what the cluster looks like. */
  readonly description: string;
  /** The options this scenario sets, e.g. `{ kubeProxy: false }`; a caller's own options win. */
  readonly options: ClusterSettings;
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
