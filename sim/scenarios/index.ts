import type { SimCluster } from '../cluster.ts';
import { all } from './all.ts';
import { ClusterBuilder } from './builder.ts';
import { cgroupHooksLeftBehind, cgroupHooksRemoved, cgroupHooksSplit } from './cgroup-hooks-left-behind.ts';
import { cgroupPrivateNs } from './cgroup-private-ns.ts';
import { healthy } from './healthy.ts';
import { hostIdentityWorld } from './host-identity-world.ts';
import { resolveOptions, type ScenarioOptions, validateOptions } from './options.ts';
import type { Plan } from './plan.ts';
import { scale } from './scale.ts';
import type { Scenario } from './scenario.ts';
import { unmanagedPods } from './unmanaged-pods.ts';
import { vxlanBlocked } from './vxlan-blocked.ts';

export type { ClusterBuilder, NodeRecord } from './builder.ts';
export type { KubeProxyReplacement, ScenarioOptions, VxlanCause } from './options.ts';
export type { Plan, PodRef } from './plan.ts';
export type { Scenario } from './scenario.ts';

export const SCENARIOS: Readonly<Record<string, Scenario>> = {
  healthy,
  'unmanaged-pods': unmanagedPods,
  'cgroup-private-ns': cgroupPrivateNs,
  'cgroup-hooks-left-behind': cgroupHooksLeftBehind,
  'cgroup-hooks-split': cgroupHooksSplit,
  'cgroup-hooks-removed': cgroupHooksRemoved,
  'host-identity-world': hostIdentityWorld,
  'vxlan-blocked': vxlanBlocked,
  all,
  scale,
};

/** Scenarios beyond the built-in ones (a team's own, from cilium-responder/testing), by name. */
export type ExtraScenarios = Readonly<Record<string, Scenario>>;

function scenarioNamed(name: string, extra: ExtraScenarios): Scenario {
  const known = { ...SCENARIOS, ...extra };
  const found = Object.hasOwn(known, name) ? known[name] : undefined;
  if (!found)
    throw new Error(`unknown scenario "${name}"; known scenarios: ${Object.keys(known).join(', ')}`);
  return found;
}

type Applied = Extract<Scenario, { apply: unknown }>;

/** The scenarios to apply, compositions expanded, each once, in order; and their presets, in order. */
function expand(
  names: readonly string[],
  extra: ExtraScenarios,
): { leaves: Applied[]; presets: ScenarioOptions[] } {
  const leaves: Applied[] = [];
  const presets: ScenarioOptions[] = [];
  const visit = (name: string) => {
    const scenario = scenarioNamed(name, extra);
    if ('composes' in scenario) scenario.composes.forEach(visit);
    else if (!leaves.includes(scenario)) leaves.push(scenario);
    if (scenario.presets) presets.push(scenario.presets);
  };
  names.forEach(visit);
  return { leaves, presets };
}

const builtPlans = new WeakMap<SimCluster, Plan>();

/**
 * Builds a cluster from scenario names, composed in order (`unmanaged-pods,vxlan-blocked` works
 * as one name or two). Each scenario's presets apply first; `options` override them.
 */
export function buildScenario(
  names: readonly string[],
  options: ScenarioOptions = {},
  extra: ExtraScenarios = {},
): { cluster: SimCluster; plan: Plan } {
  const requested = names
    .flatMap((name) => name.split(','))
    .map((name) => name.trim())
    .filter(Boolean);
  const scenarioNames = requested.length > 0 ? requested : ['healthy'];
  const taken = Object.keys(extra).find((name) => Object.hasOwn(SCENARIOS, name));
  if (taken) throw new Error(`scenario "${taken}" is a built-in scenario's name; choose another`);
  const { leaves, presets } = expand(scenarioNames, extra);
  const resolved = resolveOptions(Object.assign({}, ...presets, options));
  validateOptions(resolved);
  const builder = new ClusterBuilder(resolved, scenarioNames);
  builder.installBase();
  for (const scenario of leaves) scenario.apply(builder, resolved);
  builder.finish();
  builtPlans.set(builder.cluster, builder.plan);
  return { cluster: builder.cluster, plan: builder.plan };
}

export function buildCluster(
  names: readonly string[],
  options?: ScenarioOptions,
  extra?: ExtraScenarios,
): SimCluster {
  return buildScenario(names, options, extra).cluster;
}

/** The evidence a cluster built here holds, per scenario. */
export function planOf(cluster: SimCluster): Plan | undefined {
  return builtPlans.get(cluster);
}
