import { describe, expect, it } from 'vitest';
import { R } from '../../../sim/cluster.ts';
import type { Pod } from '../../../sim/objects.ts';
import { budgetCounts, budgetStatus, type PodDisruptionBudget } from '../../../sim/pdb.ts';
import { type KubeFacade, RESOURCES } from '../../../src/cluster/types.ts';
import { type ActuatorOptions, brakeRefusals } from '../../../src/engine/actuator.ts';
import { SILENT } from '../../../src/engine/run.ts';
import type { Logger, Report } from '../../../src/engine/types.ts';
import { actuatorOn, checkoutIncident, countingBrake } from './actuator-rig.ts';

/**
 * What happens between the actuator's last look at a pod and the eviction it sends: the cluster
 * moves on, and the API's answer decides. A write that did not happen gives its brake ticket back.
 */
const incident = checkoutIncident();

/** The cluster as the actuator sees it, with `change` made just before a real eviction is sent. */
function changingBeforeEviction(change: () => void | Promise<void>): KubeFacade {
  return new Proxy(incident.access.kube, {
    get(target, property) {
      const value = Reflect.get(target, property, target);
      if (property !== 'evict') return typeof value === 'function' ? value.bind(target) : value;
      const evict: KubeFacade['evict'] = async (namespace, name, options) => {
        if (!options.dryRun) await change();
        return target.evict(namespace, name, options);
      };
      return evict;
    },
  });
}

const actuator = (options: Partial<ActuatorOptions>) => actuatorOn(incident.access, options);

const store = () => incident.current.sim.cluster.store;

describe('the cluster changes between the check and the eviction', () => {
  it('a pod replaced by one of the same name is left alone (uid precondition), and the ticket is given back', async () => {
    const brake = countingBrake();
    let replacement = '';
    const kube = changingBeforeEviction(() => {
      const old = store().get<Pod>(R.pods, incident.pod.namespace, incident.pod.name) as Pod;
      store().delete(R.pods, incident.pod.namespace, incident.pod.name);
      const { uid: _uid, resourceVersion: _rv, ...metadata } = old.metadata;
      const created = store().create<Pod>(R.pods, { ...old, metadata: metadata as Pod['metadata'] });
      replacement = created.metadata.uid ?? '';
    });

    const done = await actuator({ kube, brake }).evictPod(incident.pod, 'no CiliumEndpoint');

    expect(done).toMatchObject({
      outcome: 'skipped',
      detail: 'the pod was replaced since it was checked (uid changed)',
    });
    expect(
      (await incident.access.kube.get(RESOURCES.pods, incident.pod.namespace, incident.pod.name)).metadata
        .uid,
    ).toBe(replacement);
    expect(brake.held()).toBe(0);
  });

  it('a pod deleted meanwhile is reported gone, and the ticket is given back', async () => {
    const brake = countingBrake();
    const kube = changingBeforeEviction(() => {
      store().delete(R.pods, incident.pod.namespace, incident.pod.name);
    });
    const done = await actuator({ kube, brake }).evictPod(incident.pod, 'no CiliumEndpoint');
    expect(done).toMatchObject({ outcome: 'skipped', detail: 'the pod is already gone' });
    expect(brake.held()).toBe(0);
  });

  it('a budget that forbids the eviction meanwhile blocks it, and the ticket is given back', async () => {
    const brake = countingBrake();
    const kube = changingBeforeEviction(() => {
      const labels =
        (store().get<Pod>(R.pods, incident.pod.namespace, incident.pod.name) as Pod).metadata.labels ?? {};
      const pdb: PodDisruptionBudget = {
        apiVersion: 'policy/v1',
        kind: 'PodDisruptionBudget',
        metadata: { name: 'late-budget', namespace: incident.pod.namespace, generation: 1 },
        spec: { selector: { matchLabels: labels }, minAvailable: '100%' },
      };
      const status = budgetStatus(pdb, budgetCounts(incident.current.sim.cluster, pdb), store().timestamp());
      store().create(R.poddisruptionbudgets, { ...pdb, status });
    });
    const done = await actuator({ kube, brake }).evictPod(incident.pod, 'no CiliumEndpoint');
    expect(done.outcome).toBe('blocked');
    expect(done.detail).toMatch(/disruption budget/);
    expect(
      (await incident.access.kube.get(RESOURCES.pods, incident.pod.namespace, incident.pod.name)).metadata
        .uid,
    ).toBe(incident.pod.uid);
    expect(brake.held()).toBe(0);
  });
});

describe('a plan whose eviction preview fails', () => {
  it('still plans the eviction, says budgets were not checked and why, and logs it', async () => {
    const warnings: unknown[][] = [];
    const log: Logger = { ...SILENT, warn: (...args: unknown[]) => warnings.push(args) };
    const kube = new Proxy(incident.access.kube, {
      get(target, property) {
        const value = Reflect.get(target, property, target);
        if (property !== 'evict') return typeof value === 'function' ? value.bind(target) : value;
        const evict: KubeFacade['evict'] = async () => {
          throw new Error('unavailable: create pods/eviction');
        };
        return evict;
      },
    });
    const done = await actuator({ kube, log, mode: 'dry-run' }).evictPod(incident.pod, 'no CiliumEndpoint');
    expect(done).toMatchObject({
      outcome: 'planned',
      detail:
        'dry-run: no CiliumEndpoint (PodDisruptionBudgets not checked: unavailable: create pods/eviction)',
    });
    expect(warnings).toEqual([
      [
        'eviction preview failed; PodDisruptionBudgets not checked',
        { error: 'unavailable: create pods/eviction' },
      ],
    ]);
  });
});

describe('every decision is logged', () => {
  it('with its action, target, outcome and reason', async () => {
    const infos: unknown[][] = [];
    const log: Logger = { ...SILENT, info: (...args: unknown[]) => infos.push(args) };
    await actuator({ log, mode: 'dry-run' }).evictPod(incident.pod, 'no CiliumEndpoint');
    expect(infos).toEqual([
      [
        'actuator decision',
        {
          action: 'evict-pod',
          target: `${incident.pod.namespace}/${incident.pod.name}`,
          outcome: 'planned',
          detail: 'dry-run: no CiliumEndpoint',
        },
      ],
    ]);
  });
});

describe('brakeRefusals', () => {
  it('counts the writes of a run the brake held back, in every step', () => {
    const step = (details: (string | undefined)[]) => ({
      id: 'act',
      title: 'act',
      status: 'warn' as const,
      summary: '',
      findings: [],
      evidence: [],
      plan: [],
      durationMs: 1,
      done: details.map((detail) => ({
        action: 'evict-pod',
        target: 'shop/web-1',
        outcome: 'blocked' as const,
        ...(detail ? { detail } : {}),
      })),
    });
    const engaged = 'brake engaged: too many cluster writes in this window';
    const report = {
      steps: [step([engaged, 'a disruption budget']), step([undefined, engaged, engaged])],
    } as unknown as Report;
    expect(brakeRefusals(report)).toBe(3);
  });
});
