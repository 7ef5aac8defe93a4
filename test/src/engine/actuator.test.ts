import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { R } from '../../../sim/cluster.ts';
import type { KubeObject, Pod } from '../../../sim/objects.ts';
import type { PodRef, UnmanagedPodsPlan } from '../../../sim/scenarios/plan.ts';
import { type ClusterAccess, KubeError, RESOURCES } from '../../../src/cluster/types.ts';
import {
  type ActuatorOptions,
  actionKey,
  createActuator,
  type JournaledActuator,
} from '../../../src/engine/actuator.ts';
import { SILENT } from '../../../src/engine/run.ts';
import { type Brake, DEFAULT_LIMITS, type Limits, type PodTarget } from '../../../src/engine/types.ts';
import { type SimUnderTest, simAccess, startScenario } from '../../helpers/sim-access.ts';

let current: SimUnderTest;
let access: ClusterAccess;
let planted: UnmanagedPodsPlan;

beforeEach(async () => {
  current = await startScenario(['unmanaged-pods']);
  access = current.access;
  planted = current.plan.unmanagedPods as UnmanagedPodsPlan;
});
afterEach(async () => {
  vi.restoreAllMocks();
  await current.sim.close();
});

const REASON = 'no CiliumEndpoint';
const keyOf = (pod: { namespace: string; name: string }) => `${pod.namespace}/${pod.name}`;

/** A brake that always allows, and says how often it was asked. */
function openBrake(): Brake & { tryWrite: ReturnType<typeof vi.fn> } {
  return { tryWrite: vi.fn(async () => true) };
}

function actuator(
  options: Partial<Omit<ActuatorOptions, 'limits'>> & { limits?: Partial<Limits> } = {},
): JournaledActuator {
  const { limits, ...rest } = options;
  return createActuator({
    cluster: access.name,
    kube: access.kube,
    cilium: access.cilium,
    mode: 'auto',
    brake: openBrake(),
    log: SILENT,
    ...rest,
    limits: { ...DEFAULT_LIMITS, ...limits },
  });
}

/** Every pod uid in the cluster, through the API: any write of any kind changes this set. */
async function podUids(): Promise<string[]> {
  const pods = await access.kube.list(RESOURCES.pods, { project: 'metadata' });
  return pods.map((pod) => pod.metadata.uid).sort();
}

/** The pod's uid now, or undefined when the API has no pod by that name. */
async function uidNow(pod: { namespace: string; name: string }): Promise<string | undefined> {
  try {
    return (await access.kube.get(RESOURCES.pods, pod.namespace, pod.name)).metadata.uid;
  } catch (error) {
    if (error instanceof KubeError && error.kind === 'not-found') return undefined;
    throw error;
  }
}

async function uidsOf(namespace: string, labelSelector: string, node?: string): Promise<string[]> {
  const pods = await access.kube.list(RESOURCES.pods, {
    namespace,
    labelSelector,
    ...(node ? { fieldSelector: `spec.nodeName=${node}` } : {}),
    project: 'metadata',
  });
  return pods.map((pod) => pod.metadata.uid);
}

function first<T>(list: readonly T[], what: string): T {
  const found = list[0];
  if (found === undefined) throw new Error(`the scenario planted no ${what}`);
  return found;
}

const readyNode = (pod: PodRef) => !planted.notReadyAgentNodes.includes(pod.node);

describe('createActuator: exclusions refuse, with the reason, and write nothing', () => {
  /** Runs the eviction in `auto` (so a missing refusal would really evict) and checks nothing changed. */
  async function refused(target: PodTarget, options: Parameters<typeof actuator>[0] = {}) {
    const brake = openBrake();
    const before = await podUids();
    const done = await actuator({ brake, ...options }).evictPod(target, REASON);
    expect(done.action).toBe('evict-pod');
    expect(done.target).toBe(keyOf(target));
    expect(done.outcome).toBe('skipped');
    expect(brake.tryWrite).not.toHaveBeenCalled();
    expect(await podUids()).toEqual(before);
    return done.detail;
  }

  it('never touches aws-node (k8s-app=aws-node)', async () => {
    const awsNode = first(planted.awsNode.filter(readyNode), 'aws-node pod on a ready node');
    expect(await refused(awsNode)).toBe('excluded by selector k8s-app=aws-node');
  });

  it('never touches a hostNetwork pod', async () => {
    const awsNodeUids = new Set(planted.awsNode.map((pod) => pod.uid));
    const hostNetwork = first(
      planted.hostNetwork.filter((pod) => !awsNodeUids.has(pod.uid) && readyNode(pod)),
      'non-aws-node hostNetwork pod on a ready node',
    );
    expect(await refused(hostNetwork)).toBe('hostNetwork pod (Cilium never manages it)');
  });

  it('never touches the mirror of a static pod', async () => {
    expect(await refused(first(planted.mirror, 'mirror pod'))).toBe('static (mirror) pod');
  });

  it('never touches a pod on a node that still has the agent-not-ready taint', async () => {
    const pod = first(planted.onNotReadyAgent, 'pod on a not-ready node');
    expect(await refused(pod)).toBe(`the Cilium agent on ${pod.node} is not ready (taint)`);
  });

  it('never touches a pod on a node whose agent is not ready, taint or not', async () => {
    const pod = first(planted.onNotReadyAgent, 'pod on a not-ready node');
    current.sim.cluster.store.update<KubeObject>(R.nodes, undefined, pod.node, (node) => ({
      ...node,
      spec: { ...(node.spec as object), taints: [] },
    }));
    expect(await refused(pod)).toBe(`the Cilium agent on ${pod.node} is not ready (not-ready)`);
  });

  it('never touches a pod a configured exclude selector matches', async () => {
    const checkout = first(
      planted.evictable.filter((pod) => pod.name.startsWith('checkout-')),
      'checkout pod',
    );
    expect(
      await refused(checkout, { limits: { excludeSelectors: ['team=payments', 'app in (checkout)'] } }),
    ).toBe('excluded by selector app in (checkout)');
  });

  it('never touches a pod no controller owns', async () => {
    const model = first(planted.evictable, 'evictable pod');
    const stored = current.sim.cluster.store.get<Pod>(R.pods, model.namespace, model.name) as Pod;
    const { uid: _uid, resourceVersion: _rv, ownerReferences: _owners, ...metadata } = stored.metadata;
    const orphan = current.sim.cluster.store.create<Pod>(R.pods, {
      ...stored,
      metadata: { ...metadata, name: `${model.name}-orphan` },
    });
    const target = { ...model, name: orphan.metadata.name, uid: orphan.metadata.uid as string };
    expect(await refused(target)).toBe('no controller owns it, so nothing would recreate it');
  });

  it('skips a pod whose uid changed since it was checked ("replaced")', async () => {
    const pod = first(planted.evictable, 'evictable pod');
    const { store } = current.sim.cluster;
    const stored = store.get<Pod>(R.pods, pod.namespace, pod.name) as Pod;
    store.delete(R.pods, pod.namespace, pod.name);
    const { uid: _uid, resourceVersion: _rv, ...metadata } = stored.metadata;
    const successor = store.create<Pod>(R.pods, { ...stored, metadata });
    expect(successor.metadata.uid).not.toBe(pod.uid);

    expect(await refused(pod)).toBe('the pod was replaced since it was checked (uid changed)');
    expect(await uidNow(pod)).toBe(successor.metadata.uid);
  });

  it('skips a pod that is gone', async () => {
    const pod = first(planted.evictable, 'evictable pod');
    expect(await refused({ ...pod, name: `${pod.name}-gone` })).toBe('the pod is already gone');
  });
});

describe('createActuator: dry-run', () => {
  it('plans an evictable pod and evicts nothing', async () => {
    const brake = openBrake();
    const before = await podUids();
    const act = actuator({ mode: 'dry-run', brake });
    for (const pod of planted.evictable) {
      expect(await act.evictPod(pod, REASON)).toEqual({
        action: 'evict-pod',
        target: keyOf(pod),
        outcome: 'planned',
        detail: `dry-run: ${REASON}`,
      });
    }
    expect(brake.tryWrite).not.toHaveBeenCalled();
    expect(await podUids()).toEqual(before);
  });

  it('reports the budget-held pod as blocked, with the PDB message, from a server-side dry run', async () => {
    const pod = first(planted.blockedByBudget, 'budget-held pod');
    const evict = vi.spyOn(access.kube, 'evict');
    const before = await podUids();

    const done = await actuator({ mode: 'dry-run' }).evictPod(pod, REASON);

    expect(done.outcome).toBe('blocked');
    expect(done.detail).toContain(`disruption budget ${planted.budget.name}`);
    expect(evict).toHaveBeenCalledTimes(1);
    expect(evict).toHaveBeenCalledWith(pod.namespace, pod.name, { uid: pod.uid, dryRun: true });
    expect(await podUids()).toEqual(before);
  });

  it('counts plans against the cap, so the plan shows exactly what auto would do', async () => {
    const [a, b] = planted.evictable as [PodRef, PodRef];
    const act = actuator({ mode: 'dry-run', limits: { maxEvictionsPerRun: 1 } });
    expect((await act.evictPod(a, REASON)).outcome).toBe('planned');
    expect(await act.evictPod(b, REASON)).toMatchObject({
      outcome: 'skipped',
      detail: 'over the per-run cap of 1',
    });
  });

  it('plans an agent restart and restarts nothing', async () => {
    const [agent] = await access.cilium.agents();
    if (!agent) throw new Error('no agents');
    const done = await actuator({
      mode: 'dry-run',
      approved: new Set([actionKey('restart-agent', agent.node)]),
    }).restartAgent(agent.node, 'host mark rule missing');
    expect(done).toEqual({
      action: 'restart-agent',
      target: agent.node,
      outcome: 'planned',
      detail: 'dry-run: host mark rule missing',
    });
    expect(await uidNow(agent)).toBe(agent.uid);
  });
});

describe('createActuator: auto', () => {
  it('evicts an evictable pod: it leaves the API and its ReplicaSet brings a replacement', async () => {
    const pod = first(
      planted.evictable.filter((p) => p.name.startsWith('checkout-')),
      'checkout pod',
    );
    const before = await uidsOf(pod.namespace, 'app=checkout');
    expect(before).toContain(pod.uid);
    const brake = openBrake();

    const done = await actuator({ brake }).evictPod(pod, REASON);

    expect(done).toEqual({ action: 'evict-pod', target: keyOf(pod), outcome: 'done', detail: REASON });
    expect(brake.tryWrite).toHaveBeenCalledExactlyOnceWith(access.name);
    expect(await uidNow(pod)).toBeUndefined();
    await vi.waitFor(async () => {
      const after = await uidsOf(pod.namespace, 'app=checkout');
      expect(after).toHaveLength(before.length);
      expect(after).not.toContain(pod.uid);
    });
  });

  it('evicts a DaemonSet pod: a new one comes back on the same node', async () => {
    const pod = first(
      planted.evictable.filter((p) => p.name.startsWith('log-shipper-')),
      'log-shipper pod',
    );
    expect((await actuator().evictPod(pod, REASON)).outcome).toBe('done');
    expect(await uidNow(pod)).toBeUndefined();
    await vi.waitFor(async () => {
      const after = await uidsOf(pod.namespace, 'app.kubernetes.io/name=fluent-bit', pod.node);
      expect(after).toHaveLength(1);
      expect(after).not.toContain(pod.uid);
    });
  });

  it('reports a pod its PodDisruptionBudget protects as blocked, not failed, leaves it, and spends no brake budget', async () => {
    const pod = first(planted.blockedByBudget, 'budget-held pod');
    const brake = openBrake();
    const done = await actuator({ brake }).evictPod(pod, REASON);
    expect(done.outcome).toBe('blocked');
    expect(done.detail).toContain(`disruption budget ${planted.budget.name}`);
    expect(await uidNow(pod)).toBe(pod.uid);
    expect(brake.tryWrite).not.toHaveBeenCalled();
  });

  it('skips a second eviction of the same pod: it is gone', async () => {
    const pod = first(planted.evictable, 'evictable pod');
    const act = actuator();
    expect((await act.evictPod(pod, REASON)).outcome).toBe('done');
    expect(await act.evictPod(pod, REASON)).toMatchObject({
      outcome: 'skipped',
      detail: 'the pod is already gone',
    });
  });

  it('stops at the per-run cap', async () => {
    const [a, b] = planted.evictable as [PodRef, PodRef];
    const act = actuator({ limits: { maxEvictionsPerRun: 1 } });
    expect((await act.evictPod(a, REASON)).outcome).toBe('done');
    expect(await act.evictPod(b, REASON)).toEqual({
      action: 'evict-pod',
      target: keyOf(b),
      outcome: 'skipped',
      detail: 'over the per-run cap of 1',
    });
    expect(await uidNow(a)).toBeUndefined();
    expect(await uidNow(b)).toBe(b.uid);
  });

  it('counts what the run used in its earlier invocations against the cap, and says what it used', async () => {
    const [a, b] = planted.evictable as [PodRef, PodRef];
    const act = actuator({
      limits: { maxEvictionsPerRun: 3, maxAgentRestartsPerRun: 1 },
      used: { evictions: 2, agentRestarts: 1 },
    });
    expect(act.used()).toEqual({ evictions: 2, agentRestarts: 1 });
    expect((await act.evictPod(a, REASON)).outcome).toBe('done');
    expect(await act.evictPod(b, REASON)).toMatchObject({
      outcome: 'skipped',
      detail: 'over the per-run cap of 3',
    });
    expect(await uidNow(b)).toBe(b.uid);
    expect(await act.restartAgent(a.node, 'fix')).toMatchObject({
      outcome: 'skipped',
      detail: 'over the per-run cap of 1',
    });
    expect(act.used()).toEqual({ evictions: 3, agentRestarts: 1 });
  });

  it('does not count a refused or blocked eviction against the cap', async () => {
    const budgetHeld = first(planted.blockedByBudget, 'budget-held pod');
    const act = actuator({ limits: { maxEvictionsPerRun: 1 } });
    expect((await act.evictPod(first(planted.mirror, 'mirror pod'), REASON)).outcome).toBe('skipped');
    expect((await act.evictPod(budgetHeld, REASON)).outcome).toBe('blocked');
    expect((await act.evictPod(first(planted.evictable, 'evictable pod'), REASON)).outcome).toBe('done');
  });

  it('writes nothing when the brake is engaged', async () => {
    const pod = first(planted.evictable, 'evictable pod');
    const brake = { tryWrite: vi.fn(async () => false) };
    const before = await podUids();

    const done = await actuator({ brake }).evictPod(pod, REASON);

    expect(done).toEqual({
      action: 'evict-pod',
      target: keyOf(pod),
      outcome: 'blocked',
      detail: 'brake engaged: too many cluster writes in this window',
    });
    expect(brake.tryWrite).toHaveBeenCalledWith(access.name);
    expect(await podUids()).toEqual(before);
  });

  it('writes nothing once the run deadline has passed', async () => {
    const pod = first(planted.evictable, 'evictable pod');
    const agent = first(await access.cilium.agents(), 'agent');
    const deadline = new AbortController();
    const brake = openBrake();
    const act = actuator({
      brake,
      signal: deadline.signal,
      approved: new Set([actionKey('restart-agent', agent.node)]),
    });
    deadline.abort();
    const before = await podUids();

    expect(await act.evictPod(pod, REASON)).toMatchObject({
      outcome: 'skipped',
      detail: expect.stringMatching(/^deadline passed/),
    });
    expect(await act.restartAgent(agent.node, 'fix')).toMatchObject({
      outcome: 'skipped',
      detail: expect.stringMatching(/^deadline passed/),
    });
    expect(brake.tryWrite).not.toHaveBeenCalled();
    expect(await podUids()).toEqual(before);
  });

  it('fails closed on an invalid exclude selector, naming it, and evicts nothing', async () => {
    const pod = first(planted.evictable, 'evictable pod');
    const before = await podUids();
    const done = await actuator({ limits: { excludeSelectors: ['app in (a'] } }).evictPod(pod, REASON);
    expect(done.outcome).toBe('failed');
    expect(done.detail).toMatch(/^invalid exclude selector "app in \(a": /);
    expect(await podUids()).toEqual(before);
  });

  it('fails with "forbidden: create pods/eviction" when the token may not evict, and the pod stays', async () => {
    const pod = first(planted.evictable, 'evictable pod');
    const reader = current.sim.issueToken('reader', [
      { verbs: ['get', 'list'], resources: ['pods', 'nodes'] },
    ]);
    const readOnly = simAccess(current.sim, reader.token);

    const done = await createActuator({
      cluster: readOnly.name,
      kube: readOnly.kube,
      cilium: readOnly.cilium,
      mode: 'auto',
      limits: DEFAULT_LIMITS,
      brake: openBrake(),
      log: SILENT,
    }).evictPod(pod, REASON);

    expect(done.outcome).toBe('failed');
    expect(done.detail).toMatch(/^forbidden: create pods\/eviction\b/);
    expect(await uidNow(pod)).toBe(pod.uid);
  });
});

describe('createActuator: approve', () => {
  it('plans without an approval ("needs approval") and evicts nothing', async () => {
    const pod = first(planted.evictable, 'evictable pod');
    const brake = openBrake();
    const before = await podUids();

    const done = await actuator({ mode: 'approve', brake }).evictPod(pod, REASON);

    expect(done).toEqual({
      action: 'evict-pod',
      target: keyOf(pod),
      outcome: 'planned',
      detail: `needs approval: ${REASON}`,
    });
    expect(brake.tryWrite).not.toHaveBeenCalled();
    expect(await podUids()).toEqual(before);
  });

  it('still shows the budget-held pod as blocked in the plan', async () => {
    const pod = first(planted.blockedByBudget, 'budget-held pod');
    const done = await actuator({ mode: 'approve' }).evictPod(pod, REASON);
    expect(done.outcome).toBe('blocked');
    expect(done.detail).toContain('disruption budget');
    expect(await uidNow(pod)).toBe(pod.uid);
  });

  it('evicts exactly the approved `evict-pod:<namespace>/<name>` keys', async () => {
    const [approvedPod, otherPod] = planted.evictable as [PodRef, PodRef];
    expect(actionKey('evict-pod', keyOf(approvedPod))).toBe(`evict-pod:${keyOf(approvedPod)}`);
    const act = actuator({ mode: 'approve', approved: new Set([`evict-pod:${keyOf(approvedPod)}`]) });

    expect(await act.evictPod(approvedPod, REASON)).toMatchObject({ outcome: 'done', detail: REASON });
    expect(await act.evictPod(otherPod, REASON)).toMatchObject({
      outcome: 'planned',
      detail: `needs approval: ${REASON}`,
    });
    expect(await uidNow(approvedPod)).toBeUndefined();
    expect(await uidNow(otherPod)).toBe(otherPod.uid);
  });

  it('re-checks an approved pod: an approval does not override an exclusion', async () => {
    const mirror = first(planted.mirror, 'mirror pod');
    const act = actuator({ mode: 'approve', approved: new Set([`evict-pod:${keyOf(mirror)}`]) });
    expect(await act.evictPod(mirror, REASON)).toMatchObject({
      outcome: 'skipped',
      detail: 'static (mirror) pod',
    });
    expect(await uidNow(mirror)).toBe(mirror.uid);
  });

  it('counts plans against the cap only when nothing was approved', async () => {
    const [unapproved, approvedPod] = planted.evictable as [PodRef, PodRef];

    const planning = actuator({ mode: 'approve', limits: { maxEvictionsPerRun: 1 } });
    expect((await planning.evictPod(unapproved, REASON)).outcome).toBe('planned');
    expect(await planning.evictPod(approvedPod, REASON)).toMatchObject({
      outcome: 'skipped',
      detail: 'over the per-run cap of 1',
    });

    const resumed = actuator({
      mode: 'approve',
      limits: { maxEvictionsPerRun: 1 },
      approved: new Set([`evict-pod:${keyOf(approvedPod)}`]),
    });
    expect((await resumed.evictPod(unapproved, REASON)).outcome).toBe('planned');
    expect((await resumed.evictPod(approvedPod, REASON)).outcome).toBe('done');
    expect(await uidNow(approvedPod)).toBeUndefined();
    expect(await uidNow(unapproved)).toBe(unapproved.uid);
  });
});

describe('createActuator: restartAgent', () => {
  async function readyAgent() {
    const agents = await access.cilium.agents();
    return first(
      agents.filter((agent) => agent.ready),
      'ready agent',
    );
  }

  it('needs an approval even in auto: without one it plans, and the agent stays', async () => {
    const agent = await readyAgent();
    const brake = openBrake();
    const done = await actuator({ brake }).restartAgent(agent.node, 'host mark rule missing');
    expect(done).toEqual({
      action: 'restart-agent',
      target: agent.node,
      outcome: 'planned',
      detail: 'needs approval: host mark rule missing',
    });
    expect(brake.tryWrite).not.toHaveBeenCalled();
    expect(await uidNow(agent)).toBe(agent.uid);
  });

  it('with `restart-agent:<node>` approved, deletes the agent pod and its DaemonSet brings a new one', async () => {
    const agent = await readyAgent();
    const brake = openBrake();
    const done = await actuator({
      brake,
      approved: new Set([actionKey('restart-agent', agent.node)]),
    }).restartAgent(agent.node, 'host mark rule missing');

    expect(done).toEqual({
      action: 'restart-agent',
      target: agent.node,
      outcome: 'done',
      detail: 'host mark rule missing',
    });
    expect(brake.tryWrite).toHaveBeenCalledExactlyOnceWith(access.name);
    expect(await uidNow(agent)).toBeUndefined();
    await vi.waitFor(async () => {
      const now = await uidsOf(agent.namespace, 'k8s-app=cilium', agent.node);
      expect(now).toHaveLength(1);
      expect(now).not.toContain(agent.uid);
    });
  });

  it('stops at the per-run cap of agent restarts', async () => {
    const agents = (await access.cilium.agents()).slice(0, 2);
    const [a, b] = agents as [(typeof agents)[number], (typeof agents)[number]];
    const act = actuator({
      limits: { maxAgentRestartsPerRun: 1 },
      approved: new Set(agents.map((agent) => actionKey('restart-agent', agent.node))),
    });
    expect((await act.restartAgent(a.node, 'fix')).outcome).toBe('done');
    expect(await act.restartAgent(b.node, 'fix')).toMatchObject({
      outcome: 'skipped',
      detail: 'over the per-run cap of 1',
    });
    expect(await uidNow(b)).toBe(b.uid);
  });

  it('writes nothing when the brake is engaged', async () => {
    const agent = await readyAgent();
    const done = await actuator({
      brake: { tryWrite: async () => false },
      approved: new Set([actionKey('restart-agent', agent.node)]),
    }).restartAgent(agent.node, 'fix');
    expect(done).toMatchObject({ outcome: 'blocked', detail: expect.stringMatching(/^brake engaged/) });
    expect(await uidNow(agent)).toBe(agent.uid);
  });

  it('skips a node without an agent pod', async () => {
    const done = await actuator({ approved: new Set(['restart-agent:no-such-node']) }).restartAgent(
      'no-such-node',
      'fix',
    );
    expect(done).toEqual({
      action: 'restart-agent',
      target: 'no-such-node',
      outcome: 'skipped',
      detail: 'no Cilium agent pod on no-such-node',
    });
  });
});
