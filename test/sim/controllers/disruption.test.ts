import { afterEach, describe, expect, it, vi } from 'vitest';
import { R, type SimCluster } from '../../../sim/cluster.ts';
import { startControllers } from '../../../sim/controllers/index.ts';
import type { Pod } from '../../../sim/objects.ts';
import { checkDisruption, type PodDisruptionBudget } from '../../../sim/pdb.ts';
import { buildScenario } from '../../../sim/scenarios/index.ts';
import type { PodRef } from '../../../sim/scenarios/plan.ts';
import { clock, pods } from '../scenarios/helpers.ts';

function healthyShop() {
  const { cluster } = buildScenario(['healthy'], { now: clock });
  const frontend = pods(cluster, 'shop').filter((p) => p.metadata.labels?.app === 'frontend');
  return { cluster, frontend };
}

function addBudget(
  cluster: SimCluster,
  name: string,
  spec: PodDisruptionBudget['spec'],
  namespace = 'shop',
): void {
  cluster.store.create<PodDisruptionBudget>(R.poddisruptionbudgets, {
    apiVersion: 'policy/v1',
    kind: 'PodDisruptionBudget',
    metadata: { name, namespace, generation: 1 },
    spec,
  });
}

const frontendSelector = { matchLabels: { app: 'frontend' } };

function setPod(cluster: SimCluster, pod: Pod, change: (pod: Pod) => Pod): Pod {
  return cluster.store.update<Pod>(R.pods, pod.metadata.namespace, pod.metadata.name, change);
}

function unready(pod: Pod): Pod {
  return {
    ...pod,
    status: {
      ...pod.status,
      conditions: pod.status?.conditions?.map((c) =>
        c.type === 'Ready' ? { ...c, status: 'False' as const } : c,
      ),
    },
  };
}

describe('checkDisruption', () => {
  it('allows a pod no budget covers', () => {
    const { cluster, frontend } = healthyShop();
    expect(checkDisruption(cluster, frontend[0] as Pod)).toEqual({ kind: 'allowed' });
  });

  it.each([
    [{ minAvailable: 3 }, { kind: 'blocked', pdbName: 'frontend', desiredHealthy: 3, currentHealthy: 3 }],
    [{ minAvailable: 2 }, { kind: 'allowed' }],
    [
      { minAvailable: '100%' },
      { kind: 'blocked', pdbName: 'frontend', desiredHealthy: 3, currentHealthy: 3 },
    ],
    [{ minAvailable: '50%' }, { kind: 'allowed' }],
    [{ maxUnavailable: 0 }, { kind: 'blocked', pdbName: 'frontend', desiredHealthy: 3, currentHealthy: 3 }],
    [{ maxUnavailable: 1 }, { kind: 'allowed' }],
    [{ maxUnavailable: '10%' }, { kind: 'allowed' }],
  ])('for a Ready pod of three under %o answers %o', (budget, verdict) => {
    const { cluster, frontend } = healthyShop();
    addBudget(cluster, 'frontend', { selector: frontendSelector, ...budget });
    expect(checkDisruption(cluster, frontend[0] as Pod)).toEqual(verdict);
  });

  it('reports more than one matching budget', () => {
    const { cluster, frontend } = healthyShop();
    addBudget(cluster, 'one', { selector: frontendSelector, minAvailable: 1 });
    addBudget(cluster, 'two', { selector: {}, minAvailable: 1 });
    expect(checkDisruption(cluster, frontend[0] as Pod)).toEqual({ kind: 'multiple' });
  });

  it('lets a budget without a selector cover nothing', () => {
    const { cluster, frontend } = healthyShop();
    addBudget(cluster, 'none', { minAvailable: 3 });
    expect(checkDisruption(cluster, frontend[0] as Pod)).toEqual({ kind: 'allowed' });
  });

  it('always allows a Pending pod', () => {
    const { cluster, frontend } = healthyShop();
    addBudget(cluster, 'frontend', { selector: frontendSelector, minAvailable: 3 });
    const pending = setPod(cluster, frontend[0] as Pod, (p) => ({
      ...p,
      status: { ...p.status, phase: 'Pending' },
    }));
    expect(checkDisruption(cluster, pending)).toEqual({ kind: 'allowed' });
  });

  it('allows an unready pod while the budget is healthy, and not when it is not', () => {
    const { cluster, frontend } = healthyShop();
    const sick = setPod(cluster, frontend[0] as Pod, unready);
    addBudget(cluster, 'frontend', { selector: frontendSelector, minAvailable: 2 });
    expect(checkDisruption(cluster, sick)).toEqual({ kind: 'allowed' });
    // A Ready sibling now has no disruption to spare (2 healthy, 2 desired).
    expect(checkDisruption(cluster, frontend[1] as Pod)).toMatchObject({
      kind: 'blocked',
      currentHealthy: 2,
      desiredHealthy: 2,
    });
  });

  it('blocks an unready pod when the budget is already short, unless AlwaysAllow', () => {
    const { cluster, frontend } = healthyShop();
    const sick = setPod(cluster, frontend[0] as Pod, unready);
    addBudget(cluster, 'frontend', { selector: frontendSelector, minAvailable: 3 });
    expect(checkDisruption(cluster, sick)).toEqual({
      kind: 'blocked',
      pdbName: 'frontend',
      desiredHealthy: 3,
      currentHealthy: 2,
    });
    cluster.store.delete(R.poddisruptionbudgets, 'shop', 'frontend');
    addBudget(cluster, 'frontend', {
      selector: frontendSelector,
      minAvailable: 3,
      unhealthyPodEvictionPolicy: 'AlwaysAllow',
    });
    expect(checkDisruption(cluster, sick)).toEqual({ kind: 'allowed' });
  });

  it('blocks DaemonSet pods under a percentage budget, which has no scale to compute from', () => {
    const { cluster } = healthyShop();
    addBudget(
      cluster,
      'aws-node',
      { selector: { matchLabels: { 'k8s-app': 'aws-node' } }, maxUnavailable: 1 },
      'kube-system',
    );
    const awsNode = pods(cluster, 'kube-system').find(
      (p) => p.metadata.labels?.['k8s-app'] === 'aws-node',
    ) as Pod;
    expect(checkDisruption(cluster, awsNode)).toMatchObject({ kind: 'blocked', pdbName: 'aws-node' });
  });

  it("blocks the unmanaged-pods scenario's budgeted pod", () => {
    const { cluster, plan } = buildScenario(['unmanaged-pods'], { now: clock });
    const ref = plan.unmanagedPods?.blockedByBudget[0] as PodRef;
    const pod = cluster.store.get<Pod>(R.pods, ref.namespace, ref.name) as Pod;
    expect(checkDisruption(cluster, pod)).toEqual({
      kind: 'blocked',
      pdbName: 'ledger',
      desiredHealthy: 2,
      currentHealthy: 2,
    });
    for (const evictable of plan.unmanagedPods?.evictable ?? []) {
      const target = cluster.store.get<Pod>(R.pods, evictable.namespace, evictable.name) as Pod;
      expect(checkDisruption(cluster, target)).toEqual({ kind: 'allowed' });
    }
  });
});

describe('the disruption controller', () => {
  let stop = () => {};
  afterEach(() => stop());

  const status = (cluster: SimCluster, namespace: string, name: string) =>
    cluster.store.get<PodDisruptionBudget>(R.poddisruptionbudgets, namespace, name)?.status;

  it('writes the status of a new budget', async () => {
    const { cluster } = healthyShop();
    stop = startControllers(cluster, { cepDelayMs: 5, readyDelayMs: 10 });
    addBudget(cluster, 'frontend', { selector: frontendSelector, minAvailable: 2 });
    await vi.waitFor(() =>
      expect(status(cluster, 'shop', 'frontend')).toMatchObject({
        currentHealthy: 3,
        desiredHealthy: 2,
        expectedPods: 3,
        disruptionsAllowed: 1,
        observedGeneration: 1,
        conditions: [{ type: 'DisruptionAllowed', status: 'True', reason: 'SufficientPods' }],
      }),
    );
  });

  it('follows a pod going and its replacement turning Ready', async () => {
    const { cluster, plan } = buildScenario(['unmanaged-pods'], { now: clock });
    stop = startControllers(cluster, { cepDelayMs: 5, readyDelayMs: 300 });
    const budget = plan.unmanagedPods?.budget;
    if (!budget) throw new Error('no budget planted');
    const { namespace, name } = budget;
    expect(status(cluster, namespace, name)).toMatchObject({ currentHealthy: 2, disruptionsAllowed: 0 });
    const victim = pods(cluster, namespace)[0] as Pod;
    cluster.store.delete(R.pods, namespace, victim.metadata.name);
    await vi.waitFor(
      () =>
        expect(status(cluster, namespace, name)).toMatchObject({
          currentHealthy: 1,
          desiredHealthy: 2,
          expectedPods: 2,
          disruptionsAllowed: 0,
          conditions: [{ status: 'False', reason: 'InsufficientPods' }],
        }),
      { interval: 2 },
    );
    await vi.waitFor(() => expect(status(cluster, namespace, name)).toMatchObject({ currentHealthy: 2 }), {
      interval: 2,
    });
  });
});
