/**
 * PodDisruptionBudgets: the status the disruption controller computes
 * (pkg/controller/disruption) and the verdict the eviction subresource gives
 * (pkg/registry/core/pod/storage/eviction.go). The status is computed from the pods as they are
 * now, i.e. by a disruption controller that never lags.
 */

import {
  type LabelSelector,
  matchLabelSelectorObject as selectorMatches,
} from '../src/cluster/label-selector.ts';
import { R, type SimCluster } from './cluster.ts';
import type { KubeObject, Pod } from './objects.ts';
import { controllerOf } from './scenarios/make/meta.ts';
import { isPodReady } from './scenarios/make/pod.ts';

export interface PodDisruptionBudget extends KubeObject {
  spec: {
    selector?: LabelSelector | null;
    minAvailable?: number | string;
    maxUnavailable?: number | string;
    unhealthyPodEvictionPolicy?: 'IfHealthyBudget' | 'AlwaysAllow';
  };
  status?: PdbStatus;
}

export interface PdbCondition {
  type: 'DisruptionAllowed';
  status: 'True' | 'False';
  reason: 'SufficientPods' | 'InsufficientPods' | 'SyncFailed';
  message: string;
  observedGeneration: number;
  lastTransitionTime: string;
}

export interface PdbStatus {
  currentHealthy: number;
  desiredHealthy: number;
  expectedPods: number;
  disruptionsAllowed: number;
  observedGeneration: number;
  conditions: PdbCondition[];
}

export interface BudgetCounts {
  currentHealthy: number;
  desiredHealthy: number;
  expectedPods: number;
  disruptionsAllowed: number;
  /** Why the counts could not be computed (then nothing may be disrupted), as the controller's failSafe. */
  syncError?: string;
}

export type DisruptionVerdict =
  | { kind: 'allowed' }
  | { kind: 'blocked'; pdbName: string; desiredHealthy: number; currentHealthy: number }
  | { kind: 'multiple' };

/** `intstr.GetScaledValueFromIntOrPercent` rounding up. */
function scaled(value: number | string, total: number): number {
  if (typeof value === 'number') return value;
  const percent = Number.parseInt(value.replace(/%$/, ''), 10);
  return Math.ceil((percent * total) / 100);
}

/** The pods a budget covers: same namespace, selector matches. */
function podsOfBudget(cluster: SimCluster, pdb: PodDisruptionBudget): Pod[] {
  return cluster.store.list(R.pods, {
    namespace: pdb.metadata.namespace as string,
    filter: (pod) => selectorMatches(pdb.spec.selector, pod.metadata.labels),
  }).items as Pod[];
}

/**
 * The sum of the scales of the pods' controllers (Deployment via its ReplicaSet, or a bare
 * ReplicaSet). Pods without a controller do not count; a controller without a scale (DaemonSet,
 * Node for mirror pods) is an error, as in the disruption controller's `getExpectedScale`.
 */
function expectedScale(cluster: SimCluster, pods: Pod[]): number | { error: string } {
  const scales = new Map<string, number>();
  for (const pod of pods) {
    const ref = controllerOf(pod);
    if (!ref || scales.has(ref.uid)) continue;
    const namespace = pod.metadata.namespace;
    const owner =
      ref.kind === 'ReplicaSet' ? cluster.store.get(R.replicasets, namespace, ref.name) : undefined;
    if (!owner || owner.metadata.uid !== ref.uid)
      return { error: `found no controllers for pod "${pod.metadata.name}"` };
    const deploymentRef = controllerOf(owner);
    const deployment =
      deploymentRef?.kind === 'Deployment'
        ? cluster.store.get(R.deployments, namespace, deploymentRef.name)
        : undefined;
    const scaleOwner = deployment ?? owner;
    scales.set(ref.uid, 0);
    scales.set(scaleOwner.metadata.uid as string, (scaleOwner.spec as { replicas?: number }).replicas ?? 1);
  }
  return [...scales.values()].reduce((sum, n) => sum + n, 0);
}

/** currentHealthy, desiredHealthy, expectedPods and disruptionsAllowed for a budget right now. */
export function budgetCounts(cluster: SimCluster, pdb: PodDisruptionBudget): BudgetCounts {
  const pods = podsOfBudget(cluster, pdb);
  const currentHealthy = pods.filter((pod) => !pod.metadata.deletionTimestamp && isPodReady(pod)).length;
  const { minAvailable, maxUnavailable } = pdb.spec;
  let expectedPods = 0;
  let desiredHealthy = 0;
  if (maxUnavailable !== undefined || typeof minAvailable === 'string') {
    const scale = expectedScale(cluster, pods);
    if (typeof scale !== 'number') {
      return {
        currentHealthy,
        desiredHealthy: 0,
        expectedPods: 0,
        disruptionsAllowed: 0,
        syncError: scale.error,
      };
    }
    expectedPods = scale;
    desiredHealthy =
      maxUnavailable !== undefined
        ? Math.max(0, expectedPods - scaled(maxUnavailable, expectedPods))
        : scaled(minAvailable as string, expectedPods);
  } else if (minAvailable !== undefined) {
    desiredHealthy = minAvailable;
    expectedPods = pods.length;
  }
  const disruptionsAllowed = expectedPods > 0 ? Math.max(0, currentHealthy - desiredHealthy) : 0;
  return { currentHealthy, desiredHealthy, expectedPods, disruptionsAllowed };
}

/** The status object the disruption controller writes, keeping the condition's transition time while it holds. */
export function budgetStatus(pdb: PodDisruptionBudget, counts: BudgetCounts, now: string): PdbStatus {
  const generation = pdb.metadata.generation ?? 1;
  const condition = counts.syncError
    ? { status: 'False' as const, reason: 'SyncFailed' as const, message: counts.syncError }
    : counts.disruptionsAllowed > 0
      ? { status: 'True' as const, reason: 'SufficientPods' as const, message: '' }
      : { status: 'False' as const, reason: 'InsufficientPods' as const, message: '' };
  const previous = pdb.status?.conditions?.find((c) => c.type === 'DisruptionAllowed');
  return {
    currentHealthy: counts.currentHealthy,
    desiredHealthy: counts.desiredHealthy,
    expectedPods: counts.expectedPods,
    disruptionsAllowed: counts.disruptionsAllowed,
    observedGeneration: generation,
    conditions: [
      {
        type: 'DisruptionAllowed',
        ...condition,
        observedGeneration: generation,
        lastTransitionTime: previous?.status === condition.status ? previous.lastTransitionTime : now,
      },
    ],
  };
}

/** Pods the eviction subresource deletes without consulting budgets: Pending, finished, or already going. */
function canIgnoreBudgets(pod: Pod): boolean {
  const phase = pod.status?.phase;
  return (
    phase === 'Pending' ||
    phase === 'Succeeded' ||
    phase === 'Failed' ||
    pod.metadata.deletionTimestamp !== undefined
  );
}

/**
 * Whether evicting `pod` is allowed now, as kube-apiserver's eviction REST decides: more than one
 * matching budget is an error; a pod that is not Ready may go while its budget is healthy (or with
 * `unhealthyPodEvictionPolicy: AlwaysAllow`); otherwise the budget must allow a disruption.
 */
export function checkDisruption(cluster: SimCluster, pod: Pod): DisruptionVerdict {
  if (canIgnoreBudgets(pod)) return { kind: 'allowed' };
  const budgets = (
    cluster.store.list(R.poddisruptionbudgets, { namespace: pod.metadata.namespace as string })
      .items as PodDisruptionBudget[]
  ).filter((pdb) => selectorMatches(pdb.spec.selector, pod.metadata.labels));
  if (budgets.length > 1) return { kind: 'multiple' };
  const pdb = budgets[0];
  if (!pdb) return { kind: 'allowed' };
  const counts = budgetCounts(cluster, pdb);
  if (!isPodReady(pod)) {
    if (pdb.spec.unhealthyPodEvictionPolicy === 'AlwaysAllow') return { kind: 'allowed' };
    if (counts.currentHealthy >= counts.desiredHealthy && counts.desiredHealthy > 0)
      return { kind: 'allowed' };
  }
  if (counts.disruptionsAllowed > 0) return { kind: 'allowed' };
  return {
    kind: 'blocked',
    pdbName: pdb.metadata.name,
    desiredHealthy: counts.desiredHealthy,
    currentHealthy: counts.currentHealthy,
  };
}
