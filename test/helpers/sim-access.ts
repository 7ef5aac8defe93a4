import { KubeConfig } from '@kubernetes/client-node';
import { type Sim, type SimOptions, startSim } from '../../sim/index.ts';
import { buildScenario, type ScenarioOptions } from '../../sim/scenarios/index.ts';
import type { Plan } from '../../sim/scenarios/plan.ts';
import { clusterAccess } from '../../src/cluster/access.ts';
import type { ClusterAccess } from '../../src/cluster/types.ts';

/** The responder's view of a running simulator, through the same facades it uses on EKS. */
export function simAccess(sim: Sim, token?: string): ClusterAccess {
  const kc = new KubeConfig();
  kc.loadFromString(sim.kubeconfig(token));
  return clusterAccess(kc, { name: 'sim' });
}

export interface SimUnderTest {
  sim: Sim;
  plan: Plan;
  access: ClusterAccess;
}

/** Builds scenarios, serves them, and connects to them. Close `sim` when done. */
export async function startScenario(
  scenarios: string[],
  options: { scenario?: ScenarioOptions; sim?: Omit<SimOptions, 'cluster' | 'scenarios' | 'scenario'> } = {},
): Promise<SimUnderTest> {
  const { cluster, plan } = buildScenario(scenarios, options.scenario);
  const sim = await startSim({ cluster, ...options.sim });
  return { sim, plan, access: simAccess(sim) };
}
