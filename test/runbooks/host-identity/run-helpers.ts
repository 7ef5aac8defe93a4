import { CoreV1Api, KubeConfig, PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';
import { hostIdentity } from '../../../runbooks/host-identity/index.ts';
import type { HostIdentityParams } from '../../../runbooks/host-identity/params.ts';
import type { Sim } from '../../../sim/index.ts';
import type { ClusterAccess } from '../../../src/cluster/types.ts';
import { type RunOptions, runRunbook } from '../../../src/engine/run.ts';
import type { Report } from '../../../src/engine/types.ts';
import { simAccess } from '../../helpers/sim-access.ts';

/** A short drop watch: the simulated agents print their drops at once. */
export const FAST = { monitorSeconds: 1, verifyTimeoutSeconds: 20 };

export function run(
  access: ClusterAccess,
  options: Partial<Omit<RunOptions<HostIdentityParams>, 'runbook' | 'access'>> = {},
): Promise<Report> {
  return runRunbook({ runbook: hostIdentity, access, mode: 'dry-run', params: FAST, ...options });
}

/** Finding targets of one code across the report, sorted. */
export function targets(report: Report, code: string, step?: string): string[] {
  return report.steps
    .filter((s) => step === undefined || s.id === step)
    .flatMap((s) => s.findings.filter((f) => f.code === code).map((f) => f.target))
    .sort();
}

export function step(report: Report, id: string) {
  const found = report.steps.find((s) => s.id === id);
  if (!found) throw new Error(`no step ${id} in the report`);
  return found;
}

/** node → uid of its agent pod, read afresh through the API. */
export async function agentUids(sim: Sim): Promise<Map<string, string>> {
  return new Map((await simAccess(sim).cilium.agents()).map((agent) => [agent.node, agent.uid]));
}

/** Someone fixed cilium-config but restarted nothing: the agents keep running without the rule. */
export async function enableIptablesRules(sim: Sim): Promise<void> {
  const kc = new KubeConfig();
  kc.loadFromString(sim.kubeconfig());
  const api = kc.makeApiClient(CoreV1Api);
  const body = { data: { 'install-iptables-rules': 'true' } };
  const mergePatch = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);
  await api.patchNamespacedConfigMap({ name: 'cilium-config', namespace: 'kube-system', body }, mergePatch);
}
